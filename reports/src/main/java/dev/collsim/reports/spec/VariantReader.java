package dev.collsim.reports.spec;

import dev.collsim.io.IoMessages;
import dev.collsim.hardware.GpuModels;
import dev.collsim.io.yaml.YamlFields;
import dev.collsim.io.yaml.YamlNode;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.nccl.env.NcclVariable;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.edit.ClusterEdits;
import dev.collsim.topology.fabric.FabricKind;
import dev.collsim.topology.fabric.FabricSpec;
import dev.collsim.units.Bandwidth;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads one what-if variant of a report spec ({@link ReportSpecReader} documents the keys): its cluster edits, NCCL
 * settings, calibration and backend, and where each key sits so a problem found when the variant is built is
 * reported at its key. Stateless.
 */
final class VariantReader {

    /** The keys of a variant, in the order the spec's documentation lists them. */
    static final Set<String> KEYS = ReportSpecReader.ordered("name", "hosts", "trays-per-domain", "host-type",
            "nic-speed", "nics-per-host", "fabric", "oversubscription", "leaf-radix", "nvlink", "network", "env",
            "calibration", "backend", "routing", "seed");

    private VariantReader() {
    }

    /**
     * @param f      the spec's fields (problems are recorded there)
     * @param v      the variant's mapping
     * @param folder folder that a calibration file resolves against
     * @param top    the spec's top-level backend, which the variant inherits
     * @return the variant, or null when it has no name or is not a mapping (the problems are recorded)
     */
    static VariantSpec variant(YamlFields f, YamlNode v, Path folder, BackendSpec top) {
        if (!f.mapping(v, KEYS)) {
            return null;
        }
        String name = f.text(v, "name", false);
        if (name == null) {
            f.add(v, "missing 'name'; every variant needs a name for tables and legends");
        }
        Integer hosts = f.integer(v, "hosts", false, 1, 1_000_000);
        String hostType = f.text(v, "host-type", false);
        Bandwidth nic = f.bandwidth(v, "nic-speed", false);
        Integer nics = f.integer(v, "nics-per-host", false, 1, 64);
        FabricKind fabric = f.value(v, "fabric", VariantReader::fabric);
        Double over = f.value(v, "oversubscription", VariantReader::oversubscription);
        Bandwidth nvlink = f.value(v, "nvlink", VariantReader::nvlink);
        Integer radix = f.integer(v, "leaf-radix", false, 1, 4096);
        // its range and divisibility depend on the base cluster's trays: checked when the variant is built
        // (ClusterSpec.withTraysPerDomain, as --trays-per-domain), and reported at this key
        Integer trays = f.integer(v, "trays-per-domain", false, 1, 1_000_000);
        NetworkClass network = f.value(v, "network", t -> Optional.ofNullable(NetworkClass.parse(t)).orElseThrow(
                () -> new IllegalArgumentException("unknown network '" + t + "'; allowed: "
                        + NetworkClass.allowed(t))));
        NcclSettings env = ncclSettings(f, v);
        String calibration = f.text(v, "calibration", false);
        if (calibration != null && !"none".equals(calibration) && !Files.isRegularFile(folder.resolve(calibration))) {
            f.add(v.get("calibration"), "calibration profile '" + calibration + "': " + IoMessages.NO_SUCH_FILE
                    + " (looked in " + folder + ")");
        }
        BackendSpec backend = ReportSpecReader.backend(f, v, top);
        if (!backend.flow()) {
            ReportSpecReader.flowOnly(f, v, "this variant");
        }
        Map<String, SpecPlace> places = new LinkedHashMap<>();
        v.fields().forEach((k, n) -> places.put(k, new SpecPlace(n.line(), n.column())));
        return name == null ? null : new VariantSpec(name, new ClusterEdits(hosts, hostType, nic, nics, fabric, over,
                nvlink == null ? null : nvlink.gbps(), radix, network, trays), env, calibration, backend, v.line(),
                places, v.path(), v.column());
    }

    /**
     * A variant's {@code env:}, parsed once here into the {@link NcclSettings} its predictions carry. A problem is
     * located at the variable it is about (unknown name or bad value), or at {@code env} for settings that
     * contradict each other.
     *
     * @return the settings, or NCCL's defaults when absent or wrong (the problems are recorded in {@code f})
     */
    private static NcclSettings ncclSettings(YamlFields f, YamlNode v) {
        Map<String, String> env = f.stringMap(v, "env");
        try {
            return NcclSettings.parse(env);
        } catch (IllegalArgumentException whole) {
            YamlNode envNode = v.get("env");
            boolean located = false;
            for (Map.Entry<String, String> e : env.entrySet()) {
                YamlNode at = envNode.get(e.getKey());
                if (!e.getKey().startsWith("NCCL_")) {
                    f.add(at, "'" + e.getKey() + "' is not an NCCL setting; allowed: NCCL_* variables"
                            + " such as NCCL_ALGO, NCCL_PROTO, NCCL_MAX_NCHANNELS");
                    located = true;
                    continue;
                }
                try {
                    NcclVariable.of(e.getKey()).parse(e.getValue());
                } catch (IllegalArgumentException one) {
                    f.add(at, one.getMessage());
                    located = true;
                }
            }
            if (!located) {
                f.add(envNode, whole.getMessage());
            }
            return NcclSettings.DEFAULTS;
        }
    }

    /**
     * A fabric's leaf down:up ratio, written as a number ({@code 2}) or as {@code "2:1"}, as everywhere
     * ({@link FabricSpec#parseRatio}, the one parser).
     *
     * @param text the value
     * @return down/up, from 1 to {@link FabricSpec#MAX_OVERSUBSCRIPTION}
     */
    static Double oversubscription(String text) {
        return FabricSpec.parseRatio(text);
    }

    /**
     * A variant's fabric, spelled as in cluster YAML and {@code --fabric}; {@code rail} is read as an alias of
     * {@code rail-optimized}.
     */
    static FabricKind fabric(String text) {
        FabricKind k = text.equals("rail") ? FabricKind.RAIL_OPTIMIZED : FabricKind.parse(text);
        if (k == null) {
            throw new IllegalArgumentException("unknown fabric '" + text + "'; allowed: " + FabricKind.allowed());
        }
        return k;
    }

    /**
     * NVLink bandwidth per GPU and direction: a bandwidth ({@code 300 GB/s}) or a generation, read as the datasheet
     * figure of that generation's SXM GPU in the GPU database ({@link GpuModels}): NVLink2 = V100 SXM2 (6 links),
     * NVLink3 = A100 SXM (12), NVLink4 = H100 SXM (18), NVLink5 = B200 (18), each link at {@code NvlinkGen}'s rate.
     */
    static Bandwidth nvlink(String text) {
        String gpu = switch (text.trim().toLowerCase(Locale.ROOT).replace(" ", "")) {
            case "nvlink2" -> "V100 SXM2";
            case "nvlink3" -> "A100 SXM";
            case "nvlink4" -> "H100 SXM";
            case "nvlink5" -> "B200";
            default -> null;
        };
        if (gpu != null) {
            return GpuModels.byName(gpu).orElseThrow().nvlinkPhysical();
        }
        try {
            return Bandwidth.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + text + "' is not an NVLink bandwidth; allowed: NVLink2,"
                    + " NVLink3, NVLink4, NVLink5, or a bandwidth per GPU such as 300 GB/s");
        }
    }
}
