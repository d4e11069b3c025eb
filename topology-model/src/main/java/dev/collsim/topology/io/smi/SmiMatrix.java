package dev.collsim.topology.io.smi;

import dev.collsim.topology.io.Problems;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code nvidia-smi topo -m} matrix as written in a text file: the device columns, the rows with their cells
 * (and the line and column of each cell), the affinity columns and the NIC legend. {@link #parseAll} finds every
 * matrix in a file, skipping {@code topo -p2p} status matrices, legends and other text. Package-private; immutable
 * after parsing.
 */
final class SmiMatrix {

    /** Labels of a topology matrix (the legend of {@code nvidia-smi topo -m}). */
    static final String ALLOWED = "X, NV# with # from 1 to 64 (e.g. NV12), PIX, PXB, PHB, NODE, SYS";
    /**
     * Labels: NV# counts the NVLinks bonded between two GPUs; a GPU has at most 18 (NVLink 4 and 5, H100/B200
     * datasheets), so 64 leaves room for parts to come while refusing a digit run no machine prints.
     */
    private static final Pattern LABEL = Pattern.compile("X|NV([1-9]|[1-5][0-9]|6[0-4])|PIX|PXB|PHB|NODE|SYS");
    /** GPU columns as nvidia-smi writes them: GPU and the device index, at most four digits. */
    private static final Pattern GPU_COLUMN = Pattern.compile("GPU(0|[1-9][0-9]{0,3})");
    /** NIC columns numbered by nvidia-smi (NIC and an index, at most four digits). */
    private static final Pattern NIC_COLUMN = Pattern.compile("NIC(0|[1-9][0-9]{0,3})");
    private static final Set<String> P2P_STATUS = Set.of("X", "OK", "NS", "CNS", "GNS", "TNS", "U");
    /**
     * What the affinity columns hold and no label is: a CPU list (0-15,32-47), a NUMA node (0) or N/A. Found among a
     * row's label cells, it means the row has fewer cells than the header has columns.
     */
    private static final Pattern AFFINITY_VALUE = Pattern.compile("\\d[\\d,-]*|N/A");
    private static final Pattern TOKEN = Pattern.compile("\\S+");
    private static final Pattern DEVICE = Pattern.compile("GPU\\d+|NIC\\d+|mlx5_\\w+|ib\\w+|eth\\w+|bnxt\\w+");
    private static final Pattern LEGEND = Pattern.compile("\\s*(NIC\\d+)\\s*:\\s*(\\S+)\\s*");
    /** ANSI SGR escapes, e.g. the underline nvidia-smi puts around its header line (ESC[4m ... ESC[0m). */
    private static final Pattern ANSI = Pattern.compile("\u001b\\[[0-9;]*m");

    /** A text cell with its 1-based position. */
    record Cell(String text, int line, int column) {
    }

    /** One row: its label cell, the matrix cells in column order, and the affinity cells by column name. */
    record Row(Cell label, List<Cell> cells, Map<String, Cell> affinity) {
    }

    final int headerLine;
    final String command;
    final List<String> columns = new ArrayList<>();
    final List<String> affinityColumns = new ArrayList<>();
    final Map<String, Row> rows = new LinkedHashMap<>();
    final Map<String, String> nicLegend = new LinkedHashMap<>();
    final List<String> notes = new ArrayList<>();
    boolean p2pStatus;

    private SmiMatrix(int headerLine, String command) {
        this.headerLine = headerLine;
        this.command = command;
    }

    /** @return true when {@code line} looks like a matrix header: first token GPU0 */
    static boolean isHeader(String line) {
        List<Cell> t = tokens(plain(line), 0);
        return !t.isEmpty() && t.get(0).text().equals("GPU0") && (t.size() == 1 || !t.get(1).text().equals("X"));
    }

    /**
     * Finds every matrix of a file.
     *
     * @param content  file text
     * @param problems where bad rows and cells are recorded
     * @return the matrices in file order, {@code topo -p2p} status matrices included (flagged)
     */
    static List<SmiMatrix> parseAll(String content, Problems problems) {
        String[] lines = content.split("\r?\n", -1);
        List<SmiMatrix> out = new ArrayList<>();
        String command = "";
        SmiMatrix current = null;
        boolean legend = false;
        for (int i = 0; i < lines.length; i++) {
            String line = plain(lines[i]);
            int no = i + 1;
            if (line.contains("nvidia-smi topo")) {
                command = line.substring(line.indexOf("nvidia-smi topo")).trim();
            }
            if (isHeader(line) && !line.trim().startsWith("#")) {
                current = new SmiMatrix(no, command);
                current.header(tokens(line, no), problems);
                out.add(current);
                legend = false;
                continue;
            }
            List<Cell> t = tokens(line, no);
            if (current != null && !t.isEmpty() && DEVICE.matcher(t.get(0).text()).matches() && !legend) {
                current.row(t, problems);
                continue;
            }
            if (line.trim().equals("NIC Legend:")) {
                legend = true;
                continue;
            }
            Matcher m = LEGEND.matcher(line);
            if (legend && current != null && m.matches()) {
                current.nicLegend.put(m.group(1), m.group(2));
                continue;
            }
            if (current == null && t.size() >= 2 && t.get(0).text().equals("GPU0") && t.get(1).text().equals("X")) {
                problems.at(no, t.get(0).column(), "header", "found row GPU0 without a header line above it;"
                        + " allowed: a header line 'GPU0 GPU1 ... CPU Affinity NUMA Affinity' before the rows");
                return out;
            }
        }
        return out;
    }

    private void header(List<Cell> t, Problems problems) {
        int i = 0;
        while (i < t.size() && !t.get(i).text().equals("CPU") && !t.get(i).text().equals("NUMA")
                && !(t.get(i).text().equals("GPU") && i + 1 < t.size() && t.get(i + 1).text().equals("NUMA"))) {
            String name = t.get(i).text();
            boolean badGpu = name.startsWith("GPU") && !GPU_COLUMN.matcher(name).matches();
            boolean badNic = name.matches("NIC\\d+") && !NIC_COLUMN.matcher(name).matches();
            if (badGpu || badNic) {
                problems.at(t.get(i).line(), t.get(i).column(), "header", "found column '" + name + "'; allowed: "
                        + "GPU<index> or NIC<index> with an index from 0 to 9999 (e.g. GPU3, NIC0), or a NIC's name");
            }
            if (columns.contains(name)) {
                problems.at(t.get(i).line(), t.get(i).column(), "header", "found column '" + name + "' twice; "
                        + "allowed: each device once");
            }
            columns.add(name);
            i++;
        }
        StringBuilder rest = new StringBuilder();
        for (; i < t.size(); i++) {
            rest.append(t.get(i).text()).append(' ');
        }
        String r = rest.toString();
        for (String name : List.of("CPU Affinity", "NUMA Affinity", "GPU NUMA ID")) {
            if (r.contains(name)) {
                affinityColumns.add(name);
            }
        }
    }

    private void row(List<Cell> t, Problems problems) {
        Cell label = t.get(0);
        int index = columns.indexOf(label.text());
        if (index < 0) {
            problems.at(label.line(), label.column(), "row", "found row '" + label.text()
                    + "', which is not a column of the header at line " + headerLine + "; allowed: " + columns);
            return;
        }
        if (t.size() < 1 + columns.size()) {
            problems.at(label.line(), label.column(), label.text(), "ragged row: found " + (t.size() - 1)
                    + " cells; allowed: " + columns.size() + " cells (one per column of the header at line "
                    + headerLine + ") then the affinity columns " + affinityColumns);
            return;
        }
        List<Cell> cells = t.subList(1, 1 + columns.size());
        for (int k = 0; k < cells.size() && !affinityColumns.isEmpty(); k++) {
            if (AFFINITY_VALUE.matcher(cells.get(k).text()).matches()) {
                Cell c = cells.get(k);
                problems.at(c.line(), c.column(), label.text(), "ragged row: found " + k + " cells, then '" + c.text()
                        + "', an affinity value (is a cell missing?); allowed: " + columns.size() + " cells (one per"
                        + " column of the header at line " + headerLine + ") then the affinity columns "
                        + affinityColumns);
                return;
            }
        }
        List<Cell> extra = t.subList(1 + columns.size(), t.size());
        List<String> names = new ArrayList<>(affinityColumns);
        if (extra.size() == names.size() + 1 && !names.contains("NUMA Affinity") && names.contains("CPU Affinity")) {
            names.add(1, "NUMA Affinity");
            if (notes.isEmpty()) {
                notes.add("the header at line " + headerLine + " lacks the 'NUMA Affinity' label its rows carry;"
                        + " read as NUMA Affinity");
            }
        }
        if (extra.size() > names.size()) {
            Cell c = extra.get(names.size());
            problems.at(c.line(), c.column(), label.text(), "ragged row: found '" + c.text() + "' after the "
                    + columns.size() + " cells and the affinity columns " + affinityColumns + "; allowed: nothing more");
            return;
        }
        Map<String, Cell> affinity = new LinkedHashMap<>();
        for (int k = 0; k < extra.size(); k++) {
            affinity.put(names.get(k), extra.get(k));
        }
        rows.put(label.text(), new Row(label, List.copyOf(cells), affinity));
    }

    /** Marks the matrix as a p2p status matrix when all its cells are p2p statuses; else checks every label. */
    void checkLabels(Problems problems) {
        p2pStatus = !rows.isEmpty() && rows.values().stream().flatMap(r -> r.cells().stream())
                .allMatch(c -> P2P_STATUS.contains(c.text()))
                && rows.values().stream().flatMap(r -> r.cells().stream()).anyMatch(c -> !c.text().equals("X"));
        if (p2pStatus) {
            return;
        }
        for (Row r : rows.values()) {
            for (int j = 0; j < r.cells().size(); j++) {
                Cell c = r.cells().get(j);
                boolean diagonal = columns.get(j).equals(r.label().text());
                if (!LABEL.matcher(c.text()).matches() || diagonal != c.text().equals("X")) {
                    problems.at(c.line(), c.column(), r.label().text() + "/" + columns.get(j), "found '" + c.text()
                            + "'; allowed: " + (diagonal ? "X (the device itself)" : ALLOWED.substring(3)));
                }
            }
        }
    }

    /** @return the label between two columns, from either row, or null when neither row is in the file */
    Cell cell(String a, String b) {
        Row ra = rows.get(a);
        if (ra != null) {
            return ra.cells().get(columns.indexOf(b));
        }
        Row rb = rows.get(b);
        return rb == null ? null : rb.cells().get(columns.indexOf(a));
    }

    /** @return true for a GPU column */
    static boolean isGpu(String column) {
        return column.startsWith("GPU");
    }

    /** @return the NIC's device name: from the NIC legend, else the column label itself */
    String nicName(String column) {
        return nicLegend.getOrDefault(column, column);
    }

    /**
     * @return the line without ANSI color/underline escapes (columns are then counted on the visible text)
     */
    static String plain(String line) {
        return line.indexOf('\u001b') < 0 ? line : ANSI.matcher(line).replaceAll("");
    }

    static List<Cell> tokens(String line, int no) {
        List<Cell> out = new ArrayList<>();
        Matcher m = TOKEN.matcher(line);
        while (m.find()) {
            out.add(new Cell(m.group(), no, m.start() + 1));
        }
        return out;
    }

    /** @return the command that printed this matrix, lower case, or empty */
    String commandLower() {
        return command.toLowerCase(Locale.ROOT);
    }
}
