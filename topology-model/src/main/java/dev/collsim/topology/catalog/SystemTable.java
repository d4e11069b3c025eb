package dev.collsim.topology.catalog;

import dev.collsim.hardware.CpuModel;
import dev.collsim.hardware.CpuModels;
import dev.collsim.hardware.GpuModels;
import dev.collsim.hardware.NicModel;
import dev.collsim.hardware.NicModels;
import dev.collsim.topology.NetworkClass;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Reads the catalog's data file of cloud and vendor systems, {@code dev/collsim/topology/catalog/systems.tsv} (on the
 * class path; its header lines say what each column holds). The file ships with collsim, so a malformed row is a bug
 * ({@link IllegalStateException} naming the line), never a user-input problem. Stateless.
 */
final class SystemTable {

    /** Class-path resource of the table. */
    static final String RESOURCE = "dev/collsim/topology/catalog/systems.tsv";

    private static final int COLUMNS = 15;

    private SystemTable() {
    }

    /** @return every row, in file order */
    static List<SystemEntry> load() {
        try (InputStream in = SystemTable.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + RESOURCE);
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + RESOURCE, e);
        }
    }

    /**
     * @param text the table: {@code #} comment lines, one header line starting with {@code name}, then rows
     * @return the rows
     * @throws IllegalStateException on a row with a wrong column count or a value out of its range
     */
    static List<SystemEntry> parse(String text) {
        List<SystemEntry> rows = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith("name\t")) {
                continue;
            }
            try {
                rows.add(row(lines[i].split("\t", -1)));
            } catch (RuntimeException e) {
                throw new IllegalStateException(RESOURCE + ":" + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        return rows;
    }

    private static SystemEntry row(String[] c) {
        if (c.length != COLUMNS) {
            throw new IllegalArgumentException("found " + c.length + " columns; allowed: " + COLUMNS);
        }
        GpuModels.Sku sku = GpuModels.sku(c[3]).orElseThrow(() -> new IllegalArgumentException("no GPU SKU '" + c[3]
                + "' in the GPU database"));
        NicModel nic = c[9].strip().equals("-") ? null : NicModels.find(c[9]).orElseThrow(() ->
                new IllegalArgumentException("NIC '" + c[9].strip() + "' names no family of the NIC database; allowed: "
                        + NicModels.all().stream().map(NicModel::family).toList() + " or -"));
        NetworkClass net = NetworkClass.parse(c[10]);
        if (net == null) {
            throw new IllegalArgumentException("network '" + c[10] + "'; allowed: " + NetworkClass.allowed());
        }
        if (!c[11].equals("yes") && !c[11].equals("no")) {
            throw new IllegalArgumentException("gpudirect '" + c[11] + "'; allowed: yes, no");
        }
        CpuModel cpu = CpuModels.find(c[12]).orElseThrow(() -> new IllegalArgumentException("CPU '" + c[12].strip()
                + "' names no family of the CPU database; allowed: " + CpuModels.all().stream().map(CpuModel::family)
                .toList()));
        List<String> aliases = c[1].isBlank() ? List.of() : Arrays.stream(c[1].split(",")).map(String::strip).toList();
        SystemEntry.Layout layout = SystemEntry.Layout.valueOf(c[5].strip().toUpperCase(Locale.ROOT));
        SystemEntry e = new SystemEntry(c[0].strip(), aliases, c[2].strip(), sku, Integer.parseInt(c[4].strip()),
                layout, Integer.parseInt(c[6].strip()), Integer.parseInt(c[7].strip()),
                Double.parseDouble(c[8].strip()), Optional.ofNullable(nic), net, c[11].equals("yes"), c[12].strip(),
                cpu, c[13].strip(), c[14].strip());
        if (layout == SystemEntry.Layout.NVL72 && (e.gpus() != 4 || e.nics() != 4)) {
            throw new IllegalArgumentException("an NVL72 tray is modelled with 4 GPUs and 4 compute NICs");
        }
        if (layout == SystemEntry.Layout.HGX && (e.nics() % e.gpus() != 0 && e.gpus() % e.nics() != 0)) {
            throw new IllegalArgumentException("NICs (" + e.nics() + ") must divide or be a multiple of GPUs ("
                    + e.gpus() + ")");
        }
        return e;
    }
}
