package dev.collsim.validation.compare;

import dev.collsim.hardware.CpuModels;
import dev.collsim.topology.catalog.SynthesizedHost;
import dev.collsim.validation.ingest.Dataset;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a data file's header says about the PCIe side of a host that a synthesized host cannot guess: GPUs behind one
 * PCIe switch ({@code nvidia-smi topo -m} PIX between them), peer-to-peer access unsupported ({@code nvidia-smi topo
 * -p2p} NS, "P2P not supported") or unsupported over PCIe alone ("P2P over PCIe not supported": NVLink peers only,
 * {@link #p2pOff}), and GPUs on other NUMA nodes than the NIC ({@link #nicNuma}). Read from the
 * {@code #@ interconnect} and {@code #@ hardware} lines; the transport a run used, from its title
 * ({@link #runTransport}).
 */
public final class HeaderPcie {

    private static final Pattern ONE_SWITCH = Pattern.compile(
            "\\b(behind|under|on) (one|a single|the same) pcie switch\\b");
    /**
     * "N PCIe switches (K GPUs each)" or "K GPUs per (PCIe) switch": K GPUs behind each switch (the 8x RTX PRO 6000
     * file's "4x c-payne PCIe Gen5 switches (4 GPUs each)"). The parenthesis must follow the word "switches" in the
     * same clause, so a count of another device is not read as one.
     */
    private static final Pattern GPUS_PER_SWITCH = Pattern.compile(
            "\\bswitch(?:es)? \\(([0-9]{1,4}) gpus each\\)|\\b([0-9]{1,4}) gpus (?:each )?per (?:pcie )?switch\\b");
    /**
     * "GPUs on different NUMA domains from NIC", "GPUs on another NUMA node than the NICs" (the H100 NVL file of
     * NVIDIA/nccl#2441); group 1 is the plural s of NICs.
     */
    private static final Pattern NIC_NUMA_APART = Pattern.compile("\\bgpus? (?:are |sit )?on (?:a |an )?(?:different|"
            + "other|another) numa (?:domains?|nodes?) (?:from|than) (?:the |its |their )?nic(s?)\\b");
    /**
     * "no NVLink bridge", "without NVLink bridges": a bridged model's boards without their bridge (the H100 NVL hosts
     * of NVIDIA/nccl#2441, whose topology dump shows no NVLink); "no NVLink bridge info" says nothing.
     */
    static final Pattern NO_BRIDGE = Pattern.compile("\\b(?:no|without(?: an?)?) nvlink bridges?\\b(?! info)");
    /**
     * "no two GPUs behind one PCIe switch", "no PCIe switch between the GPUs" ({@code nvidia-smi topo -m} NODE or SYS
     * between every pair): {@link BusNuma#place} then keeps the ranks' GPUs off a shared switch of the catalog host.
     */
    private static final Pattern NO_SHARED_SWITCH = Pattern.compile(
            "\\bno two gpus (?:behind|under|on) (?:one|a|the same) (?:pcie )?switch\\b|\\bno pcie switch\\b");
    private static final Pattern NO_P2P = Pattern.compile("\\bp2p (not supported|unavailable)\\b");
    /**
     * "P2P over PCIe not supported", "PCIe P2P unavailable": the GPUs reach each other peer to peer over NVLink only
     * ({@code nvidia-smi topo -p2p w} OK between NVLink peers, NS otherwise), which {@link #NO_P2P} does not match.
     */
    private static final Pattern NO_PCIE_P2P = Pattern.compile(
            "\\b(?:p2p (?:over|through|via) pcie|pcie p2p) (?:is )?(?:not supported|unavailable)\\b");
    private static final Pattern RUN_TRANSPORT = Pattern.compile("\\((SHM|P2P)\\)");

    private HeaderPcie() {
    }

    private static String text(Dataset d) {
        return (d.header().text("interconnect") + " " + d.header().text("hardware")).toLowerCase(Locale.ROOT);
    }

    /** @return true when the header puts the host's GPUs behind one PCIe switch */
    static boolean oneSwitch(Dataset d) {
        return ONE_SWITCH.matcher(text(d)).find();
    }

    /** @return true when the header says no two GPUs share a PCIe switch ({@link #NO_SHARED_SWITCH}) */
    static boolean noSharedSwitch(Dataset d) {
        return NO_SHARED_SWITCH.matcher(text(d)).find();
    }

    /** @return true when the header says the host's GPUs have no NVLink bridge ({@link #NO_BRIDGE}) */
    static boolean noNvlinkBridge(Dataset d) {
        return NO_BRIDGE.matcher(text(d)).find();
    }

    /**
     * @param d     the dataset
     * @param gpus  GPUs per host of the guessed cluster
     * @return GPUs behind each PCIe switch as the header states it: all of them for "behind one PCIe switch"
     *         ({@link #oneSwitch}), K for "switches (K GPUs each)" or "K GPUs per switch" (capped at gpus), else 1
     *         (one switch per GPU, the synthesized host's default)
     */
    static int gpusPerSwitch(Dataset d, int gpus) {
        if (oneSwitch(d)) {
            return gpus;
        }
        Matcher m = GPUS_PER_SWITCH.matcher(text(d));
        if (!m.find()) {
            return 1;
        }
        int k = Integer.parseInt(m.group(1) != null ? m.group(1) : m.group(2));
        return Math.max(1, Math.min(k, gpus));
    }

    /**
     * The NUMA layout of a host whose header puts the GPUs on other NUMA nodes than the NIC ({@link #NIC_NUMA_APART}),
     * for {@link SynthesizedHost}'s NICs on a NUMA node of their own. The CPU model is read from the same header lines
     * ({@link CpuModels#find}, e.g. "2x AMD EPYC 9534"); the GPUs are spread over two NUMA nodes when the header says
     * two sockets and the first host's rank lines put their PCI buses on both halves ({@link BusNuma}), else one; one
     * NIC per host when the header says "NIC" in the singular, else one per GPU (the synthesized host's default).
     *
     * @param d    the dataset
     * @param gpus GPUs per host of the guessed cluster
     * @return the layout, empty when the header does not say the NIC is on another NUMA node or names no CPU the
     *         database knows
     */
    static Optional<SynthesizedHost.NicNuma> nicNuma(Dataset d, int gpus) {
        String t = text(d);
        Matcher m = NIC_NUMA_APART.matcher(t);
        if (!m.find()) {
            return Optional.empty();
        }
        int nodes = gpus >= 2 && BusNuma.firstHostSpansBoth(d) ? 2 : 1;
        int nics = m.group(1).isEmpty() ? 1 : gpus;
        return CpuModels.find(t).map(c -> new SynthesizedHost.NicNuma(c, nodes, nics));
    }

    /**
     * A run whose title names the transport NCCL used between its GPUs, in parentheses as NCCL's INFO log prints it
     * ("Channel 00 : 0[0] -> 1[1] via SHM/direct/direct", "via P2P/direct pointer"; e.g. a table column "Stock (SHM)"),
     * is modelled with it: {@code (SHM)} as NCCL_P2P_DISABLE=1 (every pair routed through the CPU and connected by SHM,
     * NCCL 2.30.7 {@code src/graph/paths.cc ncclTopoCheckP2p}, {@code src/transport/shm.cc}), {@code (P2P)} as
     * NCCL_P2P_LEVEL=SYS (P2P at every distance). Only on one host with 2 or more ranks, and only where the run set
     * neither NCCL_P2P_DISABLE nor NCCL_P2P_LEVEL.
     *
     * @param d        the dataset
     * @param hosts    hosts of the guessed cluster
     * @param settings the run's settings; the setting is added to it when the rule applies
     * @return the assumption line when a setting was added
     */
    public static Optional<String> runTransport(Dataset d, int hosts, Map<String, String> settings) {
        Matcher m = RUN_TRANSPORT.matcher(d.label() == null ? "" : d.label());
        if (hosts != 1 || d.nRanks() < 2 || settings.containsKey("NCCL_P2P_DISABLE")
                || settings.containsKey("NCCL_P2P_LEVEL") || !m.find()) {
            return Optional.empty();
        }
        boolean shm = m.group(1).equals("SHM");
        settings.put(shm ? "NCCL_P2P_DISABLE" : "NCCL_P2P_LEVEL", shm ? "1" : "SYS");
        return Optional.of("transport " + m.group(1) + " (read from the run's title): modelled as "
                + (shm ? "NCCL_P2P_DISABLE=1 (GPU pairs through the CPU, SHM transport)"
                        : "NCCL_P2P_LEVEL=SYS (P2P between every GPU pair)"));
    }

    /**
     * A host whose GPUs cannot reach each other peer to peer is modelled with {@code NCCL_P2P_DISABLE=1}: NCCL 2.30.7
     * {@code src/graph/paths.cc ncclTopoCheckP2p} sets p2p = 0 when NVML reports the pair's P2P read or write status
     * not OK, exactly as at P2P level LOC, so the pair's path is diverted through the CPU and the SHM transport
     * connects it ({@code src/transport/shm.cc}). One whose GPUs reach each other peer to peer over NVLink only
     * ({@link #NO_PCIE_P2P}) is modelled with {@code NCCL_P2P_LEVEL=NVL}: the same NVML check turns P2P off for the
     * pairs whose path is not NVLink (before NVML's check, NCCL 2.16.5 {@code src/transport/p2p.cc p2pCanConnect}
     * did it on {@code cudaDeviceCanAccessPeer} = 0, "Could not enable P2P"), and the NVLink pairs keep it. Added only
     * on one host with 2 or more ranks, and only where the run set neither NCCL_P2P_DISABLE nor NCCL_P2P_LEVEL.
     *
     * @param d        the dataset
     * @param hosts    hosts of the guessed cluster
     * @param settings the run's settings; NCCL_P2P_DISABLE=1 or NCCL_P2P_LEVEL=NVL is added to it when a rule applies
     * @return the assumption line when the setting was added
     */
    public static Optional<String> p2pOff(Dataset d, int hosts, Map<String, String> settings) {
        if (hosts != 1 || d.nRanks() < 2 || settings.containsKey("NCCL_P2P_DISABLE")
                || settings.containsKey("NCCL_P2P_LEVEL")) {
            return Optional.empty();
        }
        if (NO_PCIE_P2P.matcher(text(d)).find()) {
            settings.put("NCCL_P2P_LEVEL", "NVL");
            return Optional.of("P2P over PCIe not supported (read from the header): modelled as NCCL_P2P_LEVEL=NVL, as"
                    + " NCCL does when NVML or CUDA reports no P2P for a pair (NVLink pairs P2P, the others through the"
                    + " CPU, SHM transport)");
        }
        if (!NO_P2P.matcher(text(d)).find()) {
            return Optional.empty();
        }
        settings.put("NCCL_P2P_DISABLE", "1");
        return Optional.of("P2P not supported (read from the header): modelled as NCCL_P2P_DISABLE=1, as NCCL does when"
                + " NVML reports no P2P (GPU pairs through the CPU, SHM transport)");
    }
}
