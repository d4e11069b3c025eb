package dev.collsim.topology.io;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Test helper, written apart from the reader: the label matrices of a {@code topo -m} text (rows until the first
 * blank line after a header; {@code -p2p} matrices, whose cells are OK/NS/..., are left out), as row -> column ->
 * label, diagonal and missing rows left out.
 */
final class LabelTable {

    private LabelTable() {
    }

    static List<Map<String, Map<String, String>>> parse(String text) {
        List<Map<String, Map<String, String>>> out = new ArrayList<>();
        List<String> columns = null;
        Map<String, Map<String, String>> table = null;
        for (String line : text.replaceAll("\u001b\\[[0-9;]*m", "").split("\n")) {
            String[] t = line.trim().split("\\s+");
            if (t[0].equals("GPU0") && (t.length == 1 || !t[1].equals("X"))) {
                columns = new ArrayList<>();
                for (String c : t) {
                    if (c.equals("CPU") || c.equals("NUMA")) {
                        break;
                    }
                    columns.add(c);
                }
                table = new LinkedHashMap<>();
                out.add(table);
                continue;
            }
            if (table == null || line.isBlank() || !columns.contains(t[0])) {
                if (table != null && line.isBlank()) {
                    if (table.isEmpty() || table.values().iterator().next().containsValue("NS")) {
                        out.remove(table);
                    }
                    table = null;
                }
                continue;
            }
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < columns.size(); i++) {
                if (!columns.get(i).equals(t[0])) {
                    row.put(columns.get(i), t[i + 1]);
                }
            }
            table.put(t[0], row);
        }
        if (table != null && table.values().stream().anyMatch(r -> r.containsValue("NS"))) {
            out.remove(table);
        }
        return out;
    }
}
