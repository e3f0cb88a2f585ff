/**
 * The version of the chunking and indexing (parsing/chunks.ts, the parsers' passages, the title
 * words). Raise it whenever a change alters which passages a document gets or their index words:
 * at the next start every parsed document of an older version is re-indexed in the background
 * from its stored file (parsing/reindex.ts), keeping its old passages searchable until the new
 * ones replace them.
 *
 * 0 — before versions were recorded (migration 0007).
 * 1 — passages under 20 meaningful characters merged into a neighbour, file-name words indexed,
 *     an overview passage for SDF documents, keywords, citation title and binding sites in PDB summaries.
 * 2 — navigation passages (tables of contents, indexes, reference lists) recognised and left out of
 *     the index; FAQ questions and headings start a passage and keep their answer (also across a
 *     page break); a caption stays with its table.
 * 3 — a Latin word joined by '.' or an apostrophe is also indexed as its parts (windows.bat:
 *     windows, bat; text/segment.ts).
 * 4 — running heads that name their section and carry the page's printed number ("§3.9浮动体 35"
 *     on lshort-zh-cn's page 47) left out of the passages (parsing/pdf-layout.ts).
 * 5 — English words are also indexed as their Porter stem (classifying: classifying classifi;
 *     text/segment.ts), which is what a question now asks for.
 *     Also activities (IC50, Ki, Kd, EC50, % inhibition) read from tables and sentences of PDFs and
 *     images into doc_activities (parsing/chemistry/activities.ts).
 * 6 — a name or formula in prose brackets ("（CDK2）", "(C9H8O4)") is indexed as itself, no longer as
 *     one chemistry token with its brackets that no question word matches (text/segment.ts).
 * 7 — code and measurements that only look like a SMILES (\documentclass[UTF8,fontset=windows],
 *     IC50=12, -var-value=TEXMFHOME) are indexed with their words as well, not as one chemistry
 *     token alone (text/segment.ts readsAsSmiles).
 * 8 — reference lists are indexed like any passage (a question about the works a document cites
 *     is answered from them).
 * 9 — a word that a footnote's number runs into ("5gedit默认使用UTF-8编码" at a page's foot) is
 *     also indexed as the word (text/segment.ts).
 * 10 — a document's tables of contents are kept in kb_outline, out of the index, for questions about
 *     its outline (retrieval/outline.ts).
 * 11 — its back-of-book indexes are kept there too (kind 'index'), for questions about the index.
 */
export const INDEX_VERSION = 11;
