package dev.collsim.topology.io;

import dev.collsim.topology.io.infragraph.InfraGraphReader;
import dev.collsim.topology.io.xml.NcclTopoXmlReader;
import dev.collsim.topology.io.yaml.YamlClusterReader;

import dev.collsim.io.InputException;
import dev.collsim.io.InputLimits;
import dev.collsim.io.InputProblem;
import dev.collsim.io.TopologyReader;
import dev.collsim.io.UserInputException;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.HostType;
import dev.collsim.topology.fabric.ClusterSpec;
import dev.collsim.topology.fabric.FabricKind;
import dev.collsim.topology.fabric.FabricSpec;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one loader of clusters: resolves what a user passes to {@code -c/--cluster} (or a report spec's
 * {@code cluster}) into a {@link ClusterSource} ({@link #resolve}): a file path (format detected by content), a shipped
 * config name ({@code configs/NAME.yaml}, also inside the jar), a catalog host type name (one host, no fabric), N
 * hosts of a catalog type as {@code NAMExN} / {@code NAME:N} ({@link #shorthand}), or N copies of a machine file's
 * host as {@code FILE:N} ({@link MachineHost}). An empty value means
 * {@link #DEFAULT}. {@link #load} is the topology alone.
 */
public final class ClusterLoader {

    /** Name of the built-in default cluster ({@code configs/default.yaml}). */
    public static final String DEFAULT = "default";

    /** A measurement given as a cluster: nccl-tests' column header or closing line, or NCCL INFO lines. */
    private static final Pattern MEASUREMENT = Pattern.compile("(?m)^[ \t]*#?[ \t]*size[ \t]+count[ \t]+type\\b"
            + "|Avg bus bandwidth|\\bNCCL INFO\\b");

    private ClusterLoader() {
    }

    /**
     * The readers tried, in order, to detect a file's format by content. This is the one place to add readers.
     *
     * @return new reader instances
     */
    public static List<TopologyReader> readers() {
        return readers(HardwareHints.NONE);
    }

    /**
     * The readers tried, in order: YAML, InfraGraph (YAML or JSON), then the machine files (NCCL topology XML, nvidia-smi topo -m text).
     *
     * @param hints GPU/NIC/CPU facts a machine file may lack (see {@link HardwareHints})
     * @return new reader instances
     */
    public static List<TopologyReader> readers(HardwareHints hints) {
        List<TopologyReader> readers = new ArrayList<>();
        readers.add(new YamlClusterReader());
        readers.add(new InfraGraphReader());
        readers.addAll(MachineFiles.readers(hints));
        return readers;
    }

    /**
     * @param cluster a file path, a config name, a catalog name, NAMExN / NAME:N, or null/blank for the default
     * @return the topology
     * @throws InputException when the name resolves to nothing, the file cannot be read, its format is not
     *                        recognized, or it has problems (all listed)
     */
    public static Topology load(String cluster) throws InputException {
        return resolve(cluster, HardwareHints.NONE, null).topology();
    }

    /**
     * @param cluster a file path, a config name, a catalog name, NAMExN / NAME:N, or null/blank for the default
     * @param hints   GPU/NIC/CPU facts a machine file (nvidia-smi text, NCCL XML) may lack
     * @return the topology
     * @throws InputException as {@link #load(String)}
     */
    public static Topology load(String cluster, HardwareHints hints) throws InputException {
        return resolve(cluster, hints, null).topology();
    }

    /**
     * The one resolution of a {@code -c/--cluster} value, tried in this order: a file (relative names resolve against
     * {@code folder}, then the working directory; format detected by content), a shipped config name, a catalog
     * host type name (one host, no fabric), N hosts of one as NAMExN / NAME:N ({@link #shorthand}).
     *
     * @param cluster what the user gave, or null/blank for {@link #DEFAULT}
     * @param hints   GPU/NIC/CPU facts a machine file may lack ({@link HardwareHints#NONE} for none)
     * @param folder  folder relative file names resolve against first (a report spec's folder), or null
     * @return the topology with its spec and origin
     * @throws InputException when the name resolves to nothing (listing configs and catalog names), the file cannot
     *                        be read, its format is not recognized, or it has problems (all listed)
     * @throws UserInputException (usage, exit 2) when a catalog name's host count is 0 or too large, or (without a
     *                            folder, i.e. typed after -c) a name that is no file, config or catalog name
     */
    public static ClusterSource resolve(String cluster, HardwareHints hints, Path folder) throws InputException {
        String name = cluster == null || cluster.isBlank() ? DEFAULT : cluster.trim();
        Path path = folder != null && Files.isRegularFile(folder.resolve(name)) ? folder.resolve(name) : Path.of(name);
        if (Files.isRegularFile(path)) {
            String content = InputLimits.readText(path, name);
            return source(name, ClusterSource.Origin.FILE, name, content, hints);
        }
        if (Files.isDirectory(path)) {
            throw new InputException(new InputProblem(name, 0, 0, "", "is a directory; give a cluster file"));
        }
        Optional<String> config = configText(name);
        if (config.isPresent()) {
            return source(name, ClusterSource.Origin.CONFIG, "configs/" + name + ".yaml", config.get(),
                    HardwareHints.NONE);
        }
        Optional<ClusterSpec> catalog = catalogSpec(name);
        if (catalog.isPresent()) {
            ClusterSource.Origin origin = Catalog.hostType(name).isPresent() ? ClusterSource.Origin.HOST_TYPE
                    : ClusterSource.Origin.HOSTS;
            return new ClusterSource(name, origin, build(catalog.get()), catalog.get());
        }
        Optional<HostCount> hosts = HostCount.split(name, HostCount::catalogType, true);
        if (hosts.isPresent()) {
            String n = hosts.get().count();
            String type = hosts.get().lowerName();
            // a bad value of the option, not of a file: a usage error (exit 2), as the README's exit codes say
            HostType t = Catalog.hostType(type).get();
            String one = t.hostsPerNvlinkDomain() > 1 ? "x1 is one rack of " + t.hostsPerNvlinkDomain() + " trays"
                    : "x1 is one host";
            String why = n.matches("0+") ? "hosts must be >= 1, found " + n + " (" + type + one + ")"
                    : "host count " + n + " of catalog host type " + type + " is too large";
            throw new UserInputException("-c/--cluster " + name + ": " + why, UserInputException.USAGE);
        }
        Predicate<String> isFile = f -> Files.isRegularFile(inFolder(folder, f));
        Optional<HostCount> counted = HostCount.split(name, isFile, false);
        if (counted.isPresent()) {
            String f = counted.get().name();
            ClusterSource one = source(f, ClusterSource.Origin.FILE, f, InputLimits.readText(inFolder(folder, f), f),
                    hints);
            return MachineHost.copies(name, f, one, counted.get().count());
        }
        Optional<String> stray = HostCount.stray(name, HostCount::catalogType, true, "NAMExN or NAME:N (N hosts of"
                + " a catalog host type)").or(() -> HostCount.stray(name, isFile, false, "FILE:N (N copies of the"
                + " machine file's host)"));
        if (stray.isPresent()) {
            throw strayCount(name, stray.get(), folder);
        }
        if (name.contains("/") || name.contains(File.separator) || name.matches(".*\\.(ya?ml|txt|xml)")) {
            throw new InputException(new InputProblem(name, 0, 0, "-c/--cluster", "no such file"));
        }
        String why = "no such file, config or catalog name (a catalog name takes a host count as NAMExN or NAME:N,"
                + " e.g. dgx-h100x2); configs: " + String.join(", ", configNames()) + "; catalog host types: "
                + String.join(", ", Catalog.typedNames()) + " (case-insensitive); other names: " + String.join(", ", Catalog.dgxNames())
                + suggestion(name);
        if (folder == null) {
            // a word typed after -c that names nothing: a bad option value (usage, exit 2), as NAMEx0 above
            throw new UserInputException("-c/--cluster " + name + ": " + why, UserInputException.USAGE);
        }
        throw new InputException(new InputProblem(name, 0, 0, "-c/--cluster", why));
    }

    /** @return {@code name} in {@code folder} when a file is there, else {@code name} as given */
    private static Path inFolder(Path folder, String name) {
        return folder != null && Files.isRegularFile(folder.resolve(name)) ? folder.resolve(name) : Path.of(name);
    }

    /** @return a stray host count's refusal: after -c a usage error (exit 2), as a count of 0; in a spec an input one */
    private static InputException strayCount(String name, String why, Path folder) {
        if (folder == null) {
            throw new UserInputException("-c/--cluster " + name + ": " + why, UserInputException.USAGE);
        }
        return new InputException(new InputProblem(name, 0, 0, "-c/--cluster", why));
    }

    /**
     * The "did you mean" of a name that is none: the nearest catalog name ({@link Catalog#suggest}) of the name without
     * its host count, the count kept as {@code NAMExN} ({@code dgx-h100 x2} and {@code dgx_h100:2} suggest
     * {@code dgx-h100x2}; an alias's catalog name takes the count: {@code nd-h100-v5x2} suggests
     * {@code Standard_ND96isr_H100_v5x2}).
     *
     * @return {@code "; did you mean '...'?"}, or empty
     */
    static String suggestion(String name) {
        Optional<HostCount> count = HostCount.trailing(name);
        String base = count.map(HostCount::name).orElse(name.trim());
        String n = count.map(HostCount::count).orElse("");
        return Catalog.suggest(base).map(s -> "; did you mean '" + (n.isEmpty() ? s : typed(s) + "x" + n) + "'?")
                .orElse("");
    }

    /**
     * @return the name to type of a suggestion: an alias's is the catalog name it stands for ({@code nd h100 v5 (=
     *         Standard_ND96isr_H100_v5)} gives {@code Standard_ND96isr_H100_v5}), which takes a host count as NAMExN
     */
    private static String typed(String suggestion) {
        int eq = suggestion.indexOf(" (= ");
        return eq < 0 || !suggestion.endsWith(")") ? suggestion : suggestion.substring(eq + 4, suggestion.length() - 1);
    }

    /**
     * N hosts of a host type, exactly as {@code -c NAMExN} builds them ({@link #shorthand}); the type may be one the
     * catalog does not list (a host synthesized from the GPU database).
     *
     * @param type  host type
     * @param count hosts, >= 1
     * @return the cluster, origin {@link ClusterSource.Origin#HOSTS}, named {@code NAMExN}
     * @throws InputException when the hosts cannot be built
     * @throws IllegalArgumentException when count is below 1
     */
    public static ClusterSource hosts(HostType type, int count) throws InputException {
        if (count < 1) {
            throw new IllegalArgumentException("count must be >= 1, got " + count);
        }
        ClusterSpec spec = spec(type, count);
        return new ClusterSource(spec.name(), ClusterSource.Origin.HOSTS, build(spec), spec);
    }

    /**
     * The spec of a cluster named by the catalog alone, without building it: a catalog host type name (one host, no
     * fabric; for a tray of a multi-host NVLink domain type one rack, as {@code NAMEx1}: {@code gb300-nvl72} is 18
     * trays of 4 GPUs in one 72-GPU NVLink domain) or N hosts of one ({@link #shorthand}).
     *
     * @param text what the user gave to {@code -c}
     * @return the spec, or empty when {@code text} is neither
     */
    public static Optional<ClusterSpec> catalogSpec(String text) {
        Optional<HostType> type = text == null ? Optional.empty() : Catalog.hostType(text.trim());
        if (type.isPresent()) {
            HostType t = type.get();
            if (t.hostsPerNvlinkDomain() > 1) {
                ClusterSpec rack = spec(t, t.hostsPerNvlinkDomain());
                return Optional.of(new ClusterSpec(t.displayName(), rack.source(), t, rack.count(), rack.fabric()));
            }
            return Optional.of(new ClusterSpec(t.displayName(), t.description(), t, 1, null));
        }
        return shorthand(text);
    }

    /**
     * The multi-host shorthand every command's {@code -c} accepts: {@code NAMExN} or {@code NAME:N}, N hosts of the
     * catalog host type NAME (case-insensitive) on a rail-optimized fabric (one leaf per NIC rail, non-blocking), or
     * with no fabric when the host type has no compute NIC (an NVLink-only domain such as GB200 NVL72). For a host
     * type that is one tray of a multi-host NVLink domain (a rack such as GB200 NVL72: 18 trays of 4 GPUs), N counts
     * racks, not trays: {@code gb200-nvl72x2} is 2 racks = 36 trays = 144 GPUs, as {@code -c gb200-nvl72} (the bare
     * name, {@link #catalogSpec}) is one 72-GPU rack; fewer trays, or trays in smaller NVLink domains, are a YAML
     * cluster's {@code count} and {@code traysPerDomain}, or the {@code --trays-per-domain} option.
     *
     * @param text what the user gave to {@code -c}
     * @return the cluster, or empty when {@code text} is not NAMExN / NAME:N of a catalog host type with N &gt;= 1
     */
    public static Optional<ClusterSpec> shorthand(String text) {
        if (text == null) {
            return Optional.empty();
        }
        Optional<HostCount> m = HostCount.split(text, HostCount::catalogType, true);
        if (m.isEmpty()) {
            return Optional.empty();
        }
        Optional<HostType> type = Catalog.hostType(m.get().lowerName());
        int count;
        try {
            count = Integer.parseInt(m.get().count());
        } catch (NumberFormatException tooLarge) {
            return Optional.empty();
        }
        if (type.isEmpty() || count < 1) {
            return Optional.empty();
        }
        long hosts = (long) count * type.get().hostsPerNvlinkDomain();
        if (hosts > Integer.MAX_VALUE) {
            return Optional.empty();
        }
        ClusterSpec s = spec(type.get(), (int) hosts);
        return Optional.of(new ClusterSpec(type.get().displayName() + "x" + count, s.source(), s.hostType(), s.count(),
                s.fabric()));
    }

    /** N hosts of a type on a rail-optimized fabric, or with none when the type has no compute NIC. */
    private static ClusterSpec spec(HostType t, int count) {
        String name = t.displayName() + "x" + count;
        if (count > 1) {
            ClusterSpec rail = new ClusterSpec(name, t.description(), t, count, FabricSpec.of(FabricKind.RAIL_OPTIMIZED));
            try {
                // one host on the fabric tells whether the type has a compute NIC; building all count hosts here
                // only to throw them away doubled the time of every large -c NAMExN
                new ClusterSpec(name, t.description(), t, 1, rail.fabric()).build();
                return rail;
            } catch (IllegalArgumentException noComputeNic) {
                // hosts without compute NICs (an NVLink-only domain): no fabric
            }
        }
        return new ClusterSpec(name, t.description(), t, count, null);
    }

    private static Topology build(ClusterSpec spec) throws InputException {
        try {
            return spec.build();
        } catch (IllegalArgumentException e) {
            throw new InputException(new InputProblem(spec.name(), 0, 0, "-c/--cluster", e.getMessage()));
        }
    }

    /**
     * Reads a description whose format is detected by content.
     *
     * @param fileName name to cite in problems
     * @param content  the text
     * @return the topology
     * @throws InputException when no reader recognizes the content, or the reader finds problems
     */
    public static Topology read(String fileName, String content) throws InputException {
        return read(fileName, content, HardwareHints.NONE);
    }

    /**
     * Reads a description whose format is detected by content, with hints for machine files.
     *
     * @param fileName name to cite in problems
     * @param content  the text
     * @param hints    GPU/NIC/CPU facts a machine file may lack
     * @return the topology
     * @throws InputException when no reader recognizes the content, or the reader finds problems
     */
    public static Topology read(String fileName, String content, HardwareHints hints) throws InputException {
        return source(fileName, ClusterSource.Origin.FILE, fileName, content, hints).topology();
    }

    /** Reads content by format; a YAML cluster keeps its spec when its hosts are a catalog type. */
    private static ClusterSource source(String name, ClusterSource.Origin origin, String fileName, String content,
            HardwareHints hints) throws InputException {
        YamlClusterReader yaml = new YamlClusterReader();
        if (yaml.accepts(content)) {
            YamlClusterReader.Cluster c = yaml.readCluster(fileName, content);
            return new ClusterSource(name, origin, c.topology(), c.catalogSpec());
        }
        InfraGraphReader infragraph = new InfraGraphReader();
        if (infragraph.accepts(content)) {
            return new ClusterSource(name, origin, infragraph.read(fileName, content), null);
        }
        for (TopologyReader r : MachineFiles.readers(hints)) {
            if (r.accepts(content)) {
                return new ClusterSource(name, origin, r.read(fileName, content), null);
            }
        }
        if (NcclTopoXmlReader.firstElement(content).matches("graphs?")) {
            int at = Math.max(0, content.indexOf("<graph"));
            int line = (int) content.substring(0, at).chars().filter(ch -> ch == '\n').count() + 1;
            int col = at - content.lastIndexOf('\n', at - 1);
            throw new InputException(new InputProblem(fileName, line, col, "graphs", "an NCCL graph file (<graphs>: what"
                    + " NCCL_GRAPH_DUMP_FILE writes and NCCL_GRAPH_FILE reads) holds the channels NCCL chose, not the"
                    + " machine; allowed: the machine's topology, the NCCL topology XML of the same run"
                    + " (NCCL_TOPO_DUMP_FILE=topo.xml) or its nvidia-smi topo -m text; to set the graphs beside"
                    + " collsim's search: topo show -c topo.xml --graph-dump " + fileName));
        }
        StringBuilder formats = new StringBuilder();
        for (TopologyReader r : readers()) {
            formats.append(formats.length() == 0 ? "" : ", ").append(r.format());
        }
        Matcher m = MEASUREMENT.matcher(content);
        if (m.find()) {
            int line = (int) content.substring(0, m.start()).chars().filter(ch -> ch == '\n').count() + 1;
            throw new InputException(new InputProblem(fileName, line, 1, "", "holds nccl-tests output or an NCCL"
                    + " INFO log, a measurement, not a machine; give it to compare or diagnose (collsim compare -m "
                    + fileName + " [-c CLUSTER]); allowed here: " + formats + ", a shipped config or a catalog type"));
        }
        throw new InputException(new InputProblem(fileName, 1, 1, "", "unrecognized format; allowed: " + formats
                + " (a YAML cluster spec starts with 'schema: " + YamlClusterReader.SCHEMA + "', an InfraGraph file has"
                + " 'infrastructure:' or 'devices:' and 'instances:', NCCL topology XML"
                + " with '<system', nvidia-smi topo -m text with a 'GPU0 ... CPU Affinity' header line)"));
    }

    /** @return the shipped config names ({@code configs/index.txt} on the classpath) */
    public static List<String> configNames() {
        return resource("configs/index.txt").map(t -> t.lines().map(String::trim).filter(s -> !s.isEmpty()).toList())
                .orElse(List.of());
    }

    /** @param name config name; @return the text of {@code configs/NAME.yaml} from the classpath, if shipped */
    public static Optional<String> configText(String name) {
        if (!name.matches("[A-Za-z0-9._-]+") || name.contains("..")) {
            return Optional.empty();
        }
        return resource("configs/" + name + ".yaml");
    }

    private static Optional<String> resource(String name) {
        try (InputStream in = ClusterLoader.class.getClassLoader().getResourceAsStream(name)) {
            return in == null ? Optional.empty() : Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
