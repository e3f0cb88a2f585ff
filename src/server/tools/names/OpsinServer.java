import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import uk.ac.cam.ch.wwmm.opsin.NameToStructure;
import uk.ac.cam.ch.wwmm.opsin.NameToStructureConfig;
import uk.ac.cam.ch.wwmm.opsin.OpsinResult;

/**
 * OPSIN as a line server for CSAI's name resolver (src/server/tools/names/opsin.ts): one JVM
 * answers many names. Each input line is "id TAB name"; each output line is "id TAB OK TAB smiles"
 * or "id TAB FAIL TAB reason", flushed at once (OPSIN's own command line buffers its output until
 * stdin closes, so it cannot serve a long-lived pipe). Run with the single-file source launcher:
 * java -cp /usr/share/java/opsin-cli.jar OpsinServer.java
 */
public class OpsinServer {
  public static void main(String[] args) throws Exception {
    NameToStructure opsin = NameToStructure.getInstance();
    NameToStructureConfig config = new NameToStructureConfig();
    config.setWarnRatherThanFailOnUninterpretableStereochemistry(true);
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), false);
    out.print("READY\t" + NameToStructure.getVersion() + "\n");
    out.flush();
    String line;
    while ((line = in.readLine()) != null) {
      int tab = line.indexOf('\t');
      if (tab < 0) continue;
      String id = line.substring(0, tab);
      String name = line.substring(tab + 1);
      String answer;
      try {
        OpsinResult result = opsin.parseChemicalName(name, config);
        String smiles = result.getSmiles();
        if (result.getStatus() != OpsinResult.OPSIN_RESULT_STATUS.FAILURE && smiles != null && !smiles.isEmpty()) {
          answer = "OK\t" + smiles;
        } else {
          answer = "FAIL\t" + oneLine(result.getMessage());
        }
      } catch (RuntimeException | StackOverflowError e) {
        answer = "FAIL\t" + oneLine(String.valueOf(e));
      }
      out.print(id + "\t" + answer + "\n");
      out.flush();
    }
  }

  private static String oneLine(String s) {
    return s == null ? "" : s.replaceAll("[\\t\\r\\n]+", " ");
  }
}
