// Defines <csai-molecule> and <csai-molecule-3d> for a card shown without the loader (as in its
// tests). Cards import this module dynamically and use none of its exports: a dynamic import of the
// element modules themselves would make the bundler build their namespace objects inside the
// loader's chunk, which then needs the bundler's runtime chunk on every embedding page.
import './molecule.element';
import './molecule-3d.element';
