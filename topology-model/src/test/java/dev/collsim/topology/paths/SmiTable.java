package dev.collsim.topology.paths;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Test helper: the label matrix of a real {@code nvidia-smi topo -m} text (first table only). */
final class SmiTable {

    final List<String> columns = new ArrayList<>();
    final Map<String, Map<String, String>> rows = new LinkedHashMap<>();

    static SmiTable load(String resource) throws IOException {
        try (InputStream in = SmiTable.class.getResourceAsStream("/data/" + resource)) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            SmiTable t = new SmiTable();
            boolean header = false;
            for (String line : text.split("\n")) {
                if (line.startsWith("#") || line.startsWith("$") || line.isBlank()) {
                    if (header && line.isBlank()) {
                        break;
                    }
                    continue;
                }
                String[] cells = line.trim().split("\\s+");
                if (!header) {
                    for (String c : cells) {
                        if (c.equals("CPU")) {
                            break;
                        }
                        t.columns.add(c);
                    }
                    header = true;
                    continue;
                }
                if (!cells[0].startsWith("GPU") && !cells[0].startsWith("mlx5") && !cells[0].startsWith("NIC")) {
                    break;
                }
                Map<String, String> row = new LinkedHashMap<>();
                for (int i = 0; i < t.columns.size() && i + 1 < cells.length; i++) {
                    row.put(t.columns.get(i), cells[i + 1]);
                }
                t.rows.put(cells[0], row);
            }
            return t;
        }
    }
}
