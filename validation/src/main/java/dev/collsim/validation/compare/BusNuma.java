package dev.collsim.validation.compare;

import dev.collsim.topology.Cpu;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.paths.PathFinder;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.RankInfo;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The NUMA node of each rank's GPU on a one-host run whose header says the host has two CPU sockets or two NUMA
 * nodes, read from the PCI bus of nccl-tests' rank lines ({@code #  Rank 0 Group 0 Pid ... device 0 [0000:4a:00]
 * NVIDIA L40S}: domain, bus, device of {@code cudaDeviceProp.pciDomainID/pciBusID/pciDeviceID}).
 *
 * <p>The assumption: a two-socket x86 BIOS gives each socket half of PCI segment 0's 256 bus numbers, socket 0
 * buses {@code 0x00-0x7f} and socket 1 {@code 0x80-0xff} (the even split of the MMCONFIG bus range; two NUMA nodes of
 * one socket split it the same way on the host this rule was checked on, the L40S FarmShare node whose
 * {@code nvidia-smi topo -m} puts buses 4a, 61 on NUMA node 0 and ca, e1 on node 1). Bus numbers alone prove
 * nothing (one AMD socket also spans {@code 0x00-0xff}), so the rule needs the header's two sockets or NUMA nodes.
 *
 * <p>Why it matters: NCCL makes one CPU node per NUMA node (NCCL 2.30.7 {@code src/graph/xml.cc}: every PCI device's
 * {@code numa_node} picks its {@code <cpu numaid>} parent; {@code src/graph/topo.cc ncclTopoConnectCpus} joins the
 * CPU nodes by SYS links), so two GPUs on two NUMA nodes are a SYS pair, with NCCL's inter-CPU bandwidth and its
 * P2P level rule ({@code src/graph/paths.cc ncclTopoCheckP2p}), whatever the catalog host's first two GPUs share.
 */
final class BusNuma {

    /** First bus number of the second socket's half of segment 0 (256 / 2). */
    static final int SPLIT_BUS = 0x80;

    static final Pattern TWO = Pattern.compile(
            "\\b(2|two|dual)[ -](cpu[ -])?(sockets?|numa[ -](nodes?|domains?))\\b|\\bdual[ -]socket\\b"
            + "|\\b(2 ?x|dual) (intel |amd )?(xeon|epyc)\\b");
    private static final Pattern BUS = Pattern.compile("^(?:([0-9a-fA-F]{4,8}):)?([0-9a-fA-F]{2}):[0-9a-fA-F]{2}"
            + "(?:\\.[0-7])?$|^0x([0-9a-fA-F]{1,2})$");

    private BusNuma() {
    }

    /**
     * @return true when the header's hardware or interconnect line says two CPU sockets or two NUMA nodes ({@code 2
     *     sockets}, {@code dual-socket}, {@code 2 NUMA nodes}, {@code 2x Xeon}, {@code dual EPYC})
     */
    static boolean twoNodes(Dataset d) {
        String text = (d.header().text("hardware") + " " + d.header().text("interconnect")).toLowerCase(Locale.ROOT);
        return TWO.matcher(text).find();
    }

    /**
     * @param busId the id inside the brackets of a rank line ({@code 0000:4a:00} or {@code 0x4a})
     * @return the PCI bus number, empty when the id is not in either form or not in PCI segment 0
     */
    static OptionalInt bus(String busId) {
        Matcher m = BUS.matcher(busId == null ? "" : busId.trim());
        if (!m.matches()) {
            return OptionalInt.empty();
        }
        if (m.group(3) != null) {
            return OptionalInt.of(Integer.parseInt(m.group(3), 16));
        }
        if (m.group(1) != null && Integer.parseInt(m.group(1), 16) != 0) {
            return OptionalInt.empty();
        }
        return OptionalInt.of(Integer.parseInt(m.group(2), 16));
    }

    /**
     * @param d the dataset
     * @return true when the header says two sockets or NUMA nodes ({@link #twoNodes}) and the rank lines of the first
     *         host named give buses of segment 0 on both halves ({@link #SPLIT_BUS}): that host's GPUs sit on two CPU
     *         nodes (used for a multi-host run's synthesized host, {@code HeaderPcie#nicNuma})
     */
    static boolean firstHostSpansBoth(Dataset d) {
        List<RankInfo> lines = d.ranks();
        if (lines.isEmpty() || !twoNodes(d)) {
            return false;
        }
        String host = lines.get(0).host();
        Set<Integer> halves = new HashSet<>();
        for (RankInfo r : lines) {
            if (host != null && host.equals(r.host())) {
                OptionalInt b = bus(r.busId());
                if (b.isEmpty()) {
                    return false;
                }
                halves.add(b.getAsInt() >= SPLIT_BUS ? 1 : 0);
            }
        }
        return halves.size() == 2;
    }

    /**
     * The ranks' GPUs on host 0 of {@code topo}, each on the NUMA node its bus says (the first unused GPU local to
     * that node), with one assumption line; empty unless the run is on one host, the header says two sockets or NUMA
     * nodes, every rank line gives a bus of segment 0, the ranks' buses fall on both halves, and host 0 has exactly
     * two CPU nodes with enough GPUs local to each. Where the header says no two GPUs share a PCIe switch
     * ({@link HeaderPcie#noSharedSwitch}), a GPU sharing none with the ranks placed before it is taken first (the
     * catalog's 8x L40S puts two GPUs behind each switch, PIX to NCCL, where the FarmShare host's pairs are NODE).
     */
    static Optional<List<Gpu>> place(Dataset d, Topology topo, List<String> assumptions) {
        List<RankInfo> lines = d.ranks();
        if (topo.hostCount() != 1 || lines.size() != d.nRanks() || d.nRanks() < 2 || !twoNodes(d)) {
            return Optional.empty();
        }
        int[] node = new int[lines.size()];
        for (RankInfo r : lines) {
            OptionalInt b = bus(r.busId());
            if (b.isEmpty() || r.rank() < 0 || r.rank() >= node.length) {
                return Optional.empty();
            }
            node[r.rank()] = b.getAsInt() >= SPLIT_BUS ? 1 : 0;
        }
        if (Arrays.stream(node).distinct().count() < 2) {
            return Optional.empty();
        }
        List<Cpu> cpus = new ArrayList<>(topo.devices(Cpu.class));
        if (cpus.size() != 2) {
            return Optional.empty();
        }
        cpus.sort(Comparator.comparingInt(Cpu::numaId));
        PathFinder paths = PathFinder.of(topo);
        List<Gpu> placed = new ArrayList<>();
        Set<Gpu> used = new HashSet<>();
        boolean apart = HeaderPcie.noSharedSwitch(d);
        for (int r = 0; r < node.length; r++) {
            Cpu want = cpus.get(node[r]);
            List<Gpu> free = topo.gpusOf(0).stream().filter(x -> !used.contains(x))
                    .filter(x -> local(paths, x, cpus) == want).toList();
            Optional<Gpu> g = free.stream().filter(x -> !apart || placed.stream().noneMatch(y -> sharesSwitch(paths,
                    x, y))).findFirst().or(() -> free.stream().findFirst());
            if (g.isEmpty()) {
                return Optional.empty();
            }
            used.add(g.get());
            placed.add(g.get());
        }
        assumptions.add(text(lines, node) + (apart ? "; no two of them behind one PCIe switch, as the header says"
                : ""));
        return Optional.of(placed);
    }

    /** @return true when the two GPUs' path stays below the CPU (PIX or PXB: one or more PCIe switches) */
    private static boolean sharesSwitch(PathFinder paths, Gpu a, Gpu b) {
        PathType t = paths.path(a, b).type();
        return t == PathType.PIX || t == PathType.PXB;
    }

    private static Cpu local(PathFinder paths, Gpu g, List<Cpu> cpus) {
        return cpus.stream().min(Comparator.comparingInt(c -> paths.path(g, c).hopCount())).orElseThrow();
    }

    private static String text(List<RankInfo> lines, int[] node) {
        StringBuilder s = new StringBuilder("ranks placed by PCI bus (the header says 2 sockets or NUMA nodes; buses"
                + " 00-7f on CPU 0, 80-ff on CPU 1, a 2-socket BIOS's even split):");
        for (RankInfo r : lines) {
            s.append(' ').append("rank ").append(r.rank()).append(" [").append(r.busId()).append("] CPU ")
                    .append(node[r.rank()]).append(',');
        }
        s.setLength(s.length() - 1);
        return s.append("; GPUs on 2 CPU nodes are a SYS pair to NCCL").toString();
    }
}
