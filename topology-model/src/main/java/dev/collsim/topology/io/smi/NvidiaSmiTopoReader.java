package dev.collsim.topology.io.smi;

import dev.collsim.topology.io.HardwareHints;
import dev.collsim.topology.io.Problems;
import dev.collsim.topology.io.xml.NcclTopoXmlReader;

import dev.collsim.io.InputException;
import dev.collsim.io.TopologyReader;
import dev.collsim.topology.Topology;
import dev.collsim.topology.TopologyBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Reads {@code nvidia-smi topo -m} text (also {@code topo -mp}; {@code topo -p2p} status matrices, legends, prompts
 * and other text are skipped) into a {@link Topology} whose path labels are the file's. See {@link SmiInference}
 * for how the graph is inferred: NV# pairs become NVLinks (one NVSwitch node when a GPU has equal counts to all
 * peers adding up to more links than one GPU has, e.g. NV12 to 7 peers), PIX/PXB/PHB/NODE/SYS become PCIe switches,
 * host bridges and CPUs joined by SMP links, NUMA nodes come from the NUMA Affinity column. GPU model and sm, NIC
 * speed, PCIe generation and CPU vendor are not in the text: they come from {@link HardwareHints} or are assumed,
 * and {@link Topology#source()} says which. Device ids: {@code h0/gpu{i}}, {@code h0/nic{k}} (k from NICk, or the
 * NIC column's position), {@code h0/cpu{numa}}, {@code h0/pcisw{k}}, {@code h0/nvs{k}}. This class is immutable
 * and thread-safe.
 */
public final class NvidiaSmiTopoReader implements TopologyReader {

    private final HardwareHints hints;

    /** A reader without hints (model unknown, sm from NVLink evidence, NIC speed NCCL's 10 Gb/s fallback). */
    public NvidiaSmiTopoReader() {
        this(HardwareHints.NONE);
    }

    /** @param hints what the text does not say: GPU model/sm, NIC speed, PCIe generation, CPU vendor */
    public NvidiaSmiTopoReader(HardwareHints hints) {
        this.hints = Objects.requireNonNull(hints, "hints");
    }

    @Override
    public String format() {
        return "nvidia-smi";
    }

    /** @return true when a line starts with GPU0 and carries "CPU Affinity", or is followed by a GPU0 X row */
    @Override
    public boolean accepts(String content) {
        String[] lines = content.split("\r?\n");
        for (int i = 0; i < lines.length; i++) {
            if (SmiMatrix.isHeader(lines[i])) {
                if (lines[i].contains("CPU Affinity")) {
                    return true;
                }
                List<SmiMatrix.Cell> next = i + 1 < lines.length ? SmiMatrix.tokens(SmiMatrix.plain(lines[i + 1]), 0)
                        : List.of();
                if (next.size() >= 2 && next.get(0).text().equals("GPU0") && next.get(1).text().equals("X")) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Reads the first topology matrix of the file; further matrices are named in {@code source()}.
     *
     * @throws InputException when no matrix is found, a row is ragged, a label is unknown or contradicts the others
     */
    @Override
    public Topology read(String fileName, String content) throws InputException {
        return readAll(fileName, content).get(0);
    }

    /**
     * Reads every topology matrix of the file (e.g. a host and a VM guest pasted together), one topology each.
     *
     * @param fileName name cited in problems
     * @param content  the text
     * @return one topology per matrix, in file order; never empty
     * @throws InputException listing every problem with line, column, row/column, found and allowed
     */
    public List<Topology> readAll(String fileName, String content) throws InputException {
        Problems problems = new Problems(fileName);
        List<SmiMatrix> matrices = SmiMatrix.parseAll(content, problems);
        List<SmiMatrix> topo = new ArrayList<>();
        for (SmiMatrix m : matrices) {
            m.checkLabels(problems);
            if (!m.p2pStatus && !m.commandLower().contains("-p2p")) {
                topo.add(m);
            }
        }
        if (topo.isEmpty() && problems.isEmpty()) {
            problems.at(1, 1, "header", "no nvidia-smi topo -m matrix found; allowed: a header line starting with"
                    + " GPU0 (e.g. 'GPU0 GPU1 NIC0 CPU Affinity NUMA Affinity GPU NUMA ID') followed by one row per"
                    + " device");
        }
        problems.throwIfAny();
        List<Topology> out = new ArrayList<>();
        for (SmiMatrix m : topo) {
            List<String> notes = new ArrayList<>(m.notes);
            List<String> missing = m.columns.stream().filter(c -> !m.rows.containsKey(c)).toList();
            List<String> gpus = missing.stream().filter(SmiMatrix::isGpu).toList();
            if (!gpus.isEmpty()) {
                // a GPU's row alone carries its CPU and NUMA affinity (nvidia-smi prints none for NIC rows), and two
                // missing GPU rows leave their pair without any label: the host is partly guessed, so it is a warning
                notes.add(Problems.WARNING + m.headerLine + ":1: GPU rows " + gpus + " are missing (the header lists"
                        + " them; is the file cut short?): their NUMA affinity is unknown and their labels are read from"
                        + " the other rows' columns only" + (gpus.size() > 1 ? ", and between themselves inferred" : ""));
            } else if (!missing.isEmpty()) {
                notes.add("rows " + missing + " are missing: their labels to each other are unknown and read from"
                        + " the other rows' columns only");
            }
            if (m.commandLower().contains("-mp")) {
                notes.add("matrix printed by '" + m.command + "': PCIe paths only, NVLinks not shown");
            }
            if (topo.size() > 1) {
                notes.add("matrix " + (out.size() + 1) + " of " + topo.size() + " (header at line " + m.headerLine + ")");
            }
            String name = NcclTopoXmlReader.baseName(fileName) + (topo.size() > 1 ? "-" + (out.size() + 1) : "");
            TopologyBuilder b = Topology.builder(name);
            new SmiInference(m, hints, problems, notes).build(b);
            problems.throwIfAny();
            StringBuilder source = new StringBuilder("nvidia-smi topo -m text " + fileName + " (line " + m.headerLine
                    + ")");
            notes.forEach(x -> source.append("; ").append(x));
            Problems.warnings(fileName, notes, b);
            out.add(b.source(source.toString()).build());
        }
        return out;
    }
}
