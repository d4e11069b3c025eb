package dev.collsim.topology.catalog;

import dev.collsim.hardware.GpuModel;
import dev.collsim.hardware.GpuModels;
import dev.collsim.hardware.PcieGen;
import dev.collsim.io.NearestName;
import dev.collsim.topology.Topology;
import dev.collsim.topology.TopologyBuilder;
import dev.collsim.units.Bandwidth;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The host types collsim knows by name. Each entry cites its sources in its javadoc.
 */
public final class Catalog {

    private static final Map<String, HostType> TYPES = new LinkedHashMap<>();

    /** Other names of host types, lower case: the DGX names of HGX hosts, ABCI's node names, and the data file's aliases. */
    private static final Map<String, String> ALIASES = new LinkedHashMap<>();

    static { // put one by one: a Map.of copy would list them in an order that changes from one JVM run to the next
        ALIASES.put("dgx-b200", "hgx-b200");
        ALIASES.put("dgx-gb200", "gb200-nvl72");
        ALIASES.put("hgx-h100", "dgx-h100");
        ALIASES.put("hgx-h200", "dgx-h200");
        ALIASES.put("abci compute node (v)", "abci-node-v"); // the ABCI system overview's name and its server's
        ALIASES.put("primergy cx2570 m4", "abci-node-v");
        ALIASES.put("abci compute node (a)", "abci-node-a");
    }

    /** The DGX/HGX names of {@link #ALIASES}, in the order {@link #dgxNames()} lists them. */
    private static final List<String> DGX_NAMES = List.of("dgx-b200", "dgx-gb200", "hgx-h100", "hgx-h200");

    /** The cloud and vendor systems of the data file ({@link SystemTable}), in file order. */
    private static final List<SystemEntry> SYSTEMS = SystemTable.load();

    /**
     * The host type that stands for a GPU model (database name): the catalog host built around it, or, for H20, the
     * host with the same NVLink layout (18 NVLink4 behind NVSwitch).
     */
    private static final Map<String, String> HOST_BY_GPU = Map.ofEntries(
            Map.entry("A100 SXM", "dgx-a100"),
            Map.entry("H100 SXM", "dgx-h100"),
            Map.entry("H20", "dgx-h100"),
            Map.entry("H200", "dgx-h200"),
            Map.entry("B200", "hgx-b200"),
            Map.entry("B300", "dgx-b300"),
            Map.entry("GB200", "gb200-nvl72"),
            Map.entry("GB300", "gb300-nvl72"),
            Map.entry("V100 SXM2", "dgx1-v100"),
            Map.entry("L40S", "pcie-8x-l40s"),
            Map.entry("GeForce RTX 4090", "pcie-8x-rtx4090"));

    static {
        register(new Dgx1V100());
        register(new DgxA100(true));
        register(dgxH100());
        register(dgxH200());
        register(hgxB200());
        register(new Gb200Nvl72Tray());
        register(PcieEightGpu.l40s());
        register(PcieEightGpu.rtx4090());
        register(new AbciNodeV());
        register(new AbciNodeA());
        for (SystemEntry e : SYSTEMS) {
            if (TYPES.containsKey(e.key())) {
                throw new IllegalStateException(SystemTable.RESOURCE + ": duplicate name " + e.name());
            }
            register(new SystemHost(e));
            e.aliases().forEach(a -> ALIASES.put(a.toLowerCase(Locale.ROOT), e.key()));
        }
    }

    private Catalog() {
    }

    private static void register(HostType t) {
        TYPES.put(t.name(), t);
    }

    /** @return the catalog names, in catalog order */
    public static List<String> names() {
        return List.copyOf(TYPES.keySet());
    }

    /**
     * The names a user types for the catalog's host types, for the allowed lists of {@code -c} and YAML {@code hosts:}
     * errors: the key ({@link HostType#name()}, looked up case-insensitively), as the maker spells it where the two
     * differ only in case ({@code Standard_ND96isr_H100_v5} is typed as is), else the key with the maker's name beside
     * it ({@code abci-node-v (ABCI Compute Node (V))}: the name with spaces and parentheses is not one to type).
     *
     * @return one entry per host type, in catalog order
     */
    public static List<String> typedNames() {
        return TYPES.values().stream().map(Catalog::typed).toList();
    }

    /** @return the name to type for a host type, the maker's name beside it where that is another word */
    private static String typed(HostType t) {
        return t.displayName().equalsIgnoreCase(t.name()) ? t.displayName() : t.name() + " (" + t.displayName() + ")";
    }

    /**
     * @return the DGX/HGX names that stand for a catalog host type, each with the type, e.g.
     *         {@code dgx-gb200 (= gb200-nvl72)}
     */
    public static List<String> dgxNames() {
        return DGX_NAMES.stream().map(a -> a + " (= " + ALIASES.get(a) + ")").toList();
    }

    /**
     * The catalog name or alias closest to a name that is none, for a "did you mean" hint: the one rule of {@link
     * NearestName} (smallest Levenshtein distance, case ignored, at most a third of the longer name's characters
     * differing; so {@code dgx-h1000} suggests {@code dgx-h100}, while an unrelated word suggests nothing), else the one
     * name that a name of 4 or more characters begins ({@code p5.48xl} suggests {@code p5.48xlarge}).
     *
     * @param name the name as the user wrote it
     * @return the suggestion as a user types it ({@link #typedNames}), e.g. {@code dgx-h100}, or empty
     */
    public static Optional<String> suggest(String name) {
        if (name == null || name.isBlank()) {
            return Optional.empty();
        }
        String key = name.trim().toLowerCase(Locale.ROOT);
        List<String> candidates = new ArrayList<>(TYPES.keySet());
        candidates.addAll(ALIASES.keySet());
        String best = NearestName.of(name, candidates).orElse(null);
        if (best == null) {
            // a name cut short (p5.48xl, a3-mega): the one catalog name it begins, if only one
            List<String> longer = candidates.stream().filter(c -> key.length() >= 4
                    && c.toLowerCase(Locale.ROOT).startsWith(key)).toList();
            if (longer.size() != 1) {
                return Optional.empty();
            }
            best = longer.get(0);
        }
        String found = best;
        return hostType(found).map(t -> ALIASES.containsKey(found.toLowerCase(Locale.ROOT))
                ? found + " (= " + typed(t) + ")" : typed(t));
    }

    /** @return the cloud and vendor systems of the catalog's data file, in file order */
    public static List<SystemEntry> systems() {
        return SYSTEMS;
    }

    /**
     * @param name catalog name or alias (case-insensitive), e.g. {@code dgx-h100}, {@code p5.48xlarge}, {@code p5}
     * @return the host type, if known
     */
    public static Optional<HostType> hostType(String name) {
        String key = name == null ? "" : name.toLowerCase(Locale.ROOT);
        return Optional.ofNullable(TYPES.get(ALIASES.getOrDefault(key, key)));
    }

    /**
     * The host type a free text names (a data file's hardware line, a run's label): the catalog name or alias found
     * earliest in the text (the longest at one place), compared with spaces, hyphens and underscores as one separator
     * and case ignored, and standing alone (no letter or digit right before or after it), e.g. {@code AWS
     * p5.48xlarge}, {@code GCP A3 Mega}, {@code Azure ND96amsr_A100_v4}, {@code OCI BM.GPU4.8}, {@code DGX H100}.
     *
     * @param text the text (null allowed)
     * @return the host type, empty when the text names none
     */
    public static Optional<HostType> recognise(String text) {
        String t = SystemNames.normalise(text);
        String best = null;
        int bestAt = Integer.MAX_VALUE;
        Map<String, String> names = new LinkedHashMap<>();
        TYPES.keySet().forEach(n -> names.put(n, n));
        names.putAll(ALIASES);
        for (Map.Entry<String, String> n : names.entrySet()) {
            String key = SystemNames.normalise(n.getKey());
            int at = SystemNames.find(t, key);
            if (at >= 0 && (at < bestAt || at == bestAt && key.length() > SystemNames.normalise(best).length())) {
                bestAt = at;
                best = n.getKey();
            }
        }
        return best == null ? Optional.empty() : hostType(best);
    }

    /**
     * @param gpu a GPU model of the database
     * @return the catalog host type that models hosts of that GPU, empty when the catalog has none
     */
    public static Optional<HostType> forGpu(GpuModel gpu) {
        return hostType(HOST_BY_GPU.get(gpu.name()));
    }

    private static GpuModels.Sku sku(String name) {
        return GpuModels.sku(name)
                .orElseThrow(() -> new IllegalStateException("no GPU '" + name + "' in the database"));
    }

    /**
     * Builds {@code count} hosts of one type with no network fabric (NICs unconnected); GB200 NVL72 trays still share
     * their NVLink domain switch.
     *
     * @param type  the host type
     * @param count hosts, >= 1
     * @return the topology, named after the type
     * @throws IllegalArgumentException when count is below 1
     */
    public static Topology standalone(HostType type, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be >= 1, got " + count);
        }
        TopologyBuilder b = Topology.builder(count == 1 ? type.name() : type.name() + "-x" + count)
                .source(type.description()).networkClass(type.networkClass())
                .nicVendor(type.nicVendor());
        for (int h = 0; h < count; h++) {
            type.addHost(new HostContext(b, h, Math.max(1, type.hostsPerNvlinkDomain())));
        }
        return b.build();
    }

    /**
     * NVIDIA DGX H100: 8 H100-SXM5-80GB (sm90), 4 NVSwitch chips, 18 NVLink4 links per GPU at 25 GB/s per link and
     * direction (450 GB/s; NCCL 18 x 20.6 = 370.8), 8 ConnectX-7 400 Gb/s compute NICs each behind a PCIe Gen5 switch
     * with its GPU, 2 dual-port ConnectX-7 storage NICs, 2 Intel Xeon Platinum 8480C (4 UPI links at 16 GT/s, 128 GB/s
     * per direction; NCCL Sapphire Rapids 22 GB/s).
     *
     * <p>Sources: NVIDIA DGX H100 User Guide (system specifications: 8x H100 80 GB, 4x NVSwitch, 900 GB/s GPU-GPU
     * bidirectional, 8x single-port ConnectX-7 400 Gb/s, 2x dual-port ConnectX-7, 2x Xeon 8480C); NVIDIA H100
     * datasheet (18 NVLink4 links, 900 GB/s); Intel ARK 8480+ (4 UPI, 16 GT/s);
     * {@code ../shared/data/B-topo-dgx-h100-12nic-partial.txt}; NCCL 2.30 {@code src/graph/topo.h}.
     *
     * @return the host type
     */
    public static HostType dgxH100() {
        return new HgxEightGpu("dgx-h100", "NVIDIA DGX H100: 8x H100-SXM5-80GB, 4 NVSwitch (NV18, 450 GB/s per GPU),"
                + " 8x CX-7 400G + 2 dual-port storage, 2x Xeon 8480C (DGX H100 User Guide)", sku("H100-SXM5-80GB"), 4,
                "Xeon Platinum 8480C", Bandwidth.ofGbits(400), PcieGen.GEN5, true);
    }

    /**
     * NVIDIA DGX H200: as {@link #dgxH100()} with H200 GPUs (141 GB HBM3e, same NVLink4 18 links).
     *
     * <p>Sources: NVIDIA DGX H200 datasheet (8x H200 141 GB, 4x NVSwitch, 900 GB/s, 8x ConnectX-7 400 Gb/s,
     * 2x Xeon Platinum 8480C); NVIDIA H200 datasheet.
     *
     * @return the host type
     */
    public static HostType dgxH200() {
        return new HgxEightGpu("dgx-h200", "NVIDIA DGX H200: 8x H200-SXM-141GB, 4 NVSwitch (NV18, 450 GB/s per GPU),"
                + " 8x CX-7 400G + 2 dual-port storage, 2x Xeon 8480C (DGX H200 datasheet)", sku("H200-SXM-141GB"), 4,
                "Xeon Platinum 8480C", Bandwidth.ofGbits(400), PcieGen.GEN5, true);
    }

    /**
     * HGX B200 (as in DGX B200): 8 B200 (sm100, 180 GB), 2 NVLink5 switch chips, 18 NVLink5 links per GPU at 50 GB/s
     * per link and direction (900 GB/s; NCCL 18 x 40.1 = 721.8), 8 ConnectX-7 400 Gb/s NICs on PCIe Gen5 switches,
     * 2 Intel Xeon Platinum 8570 (Emerald Rapids; 4 UPI at 20 GT/s, 160 GB/s per direction; NCCL 40 GB/s).
     *
     * <p>Sources: NVIDIA DGX B200 datasheet (8x B200, 1,440 GB total, 2x NVSwitch, 14.4 TB/s aggregate NVLink,
     * 8x single-port ConnectX-7 400 Gb/s, 2x Xeon Platinum 8570); NVIDIA Blackwell datasheet (NVLink5 1.8 TB/s per GPU
     * bidirectional over 18 links); Intel ARK 8570; NCCL 2.30 {@code src/graph/topo.h}.
     *
     * @return the host type
     */
    public static HostType hgxB200() {
        return new HgxEightGpu("hgx-b200", "HGX B200: 8x B200-180GB, 2 NVSwitch (NV18 NVLink5, 900 GB/s per GPU),"
                + " 8x CX-7 400G, 2x Xeon 8570 (DGX B200 datasheet)", sku("B200-180GB"), 2, "Xeon Platinum 8570",
                Bandwidth.ofGbits(400), PcieGen.GEN5, false);
    }
}
