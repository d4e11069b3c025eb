package dev.collsim.reports.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.HostType;
import dev.collsim.topology.fabric.ClusterSpec;
import dev.collsim.topology.fabric.FabricKind;
import dev.collsim.topology.fabric.FabricSpec;
import dev.collsim.topology.io.ClusterLoader;
import dev.collsim.units.Bandwidth;
import dev.collsim.units.Latency;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The base cluster of a plan or report, loaded with {@link ClusterLoader} (which validates it and reports every
 * problem), plus, when it is built from a catalog host type (a collsim YAML spec with {@code hosts: <catalog name>},
 * or a bare catalog name), its {@link ClusterSpec}: what variants change (host count, fabric, NICs). Machine files
 * (nvidia-smi topo -m, NCCL XML) and inline host descriptions have no spec: only NCCL settings can vary on them.
 * Immutable.
 *
 * @param label    what the user named
 * @param topology the cluster
 * @param spec     its spec, or null when it was not built from a catalog host type
 */
public record BaseCluster(String label, Topology topology, ClusterSpec spec) {

    /**
     * @param cluster  a file (resolved against {@code folder}), a shipped config name, a catalog name, N hosts of one
     *                 as NAMExN or NAME:N ({@link ClusterLoader#shorthand}), or blank for
     *                 the default cluster
     * @param folder   folder relative file names resolve against, or null for the working directory
     * @return the base cluster
     * @throws InputException when the cluster cannot be loaded (every problem listed)
     */
    public static BaseCluster load(String cluster, Path folder) throws InputException {
        String name = cluster == null || cluster.isBlank() ? ClusterLoader.DEFAULT : cluster.trim();
        Path file = folder == null ? Path.of(name) : folder.resolve(name);
        if (Files.isRegularFile(file)) {
            String text;
            try {
                text = Files.readString(file, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new InputException(new InputProblem(name, 0, 0, "", dev.collsim.io.IoMessages.reason(e)));
            }
            Topology t = ClusterLoader.read(name, text);
            return new BaseCluster(name, t, specOf(t, text).orElse(null));
        }
        Optional<String> config = ClusterLoader.configText(name);
        if (config.isPresent()) {
            Topology t = ClusterLoader.read("configs/" + name + ".yaml", config.get());
            return new BaseCluster(name, t, specOf(t, config.get()).orElse(null));
        }
        Optional<HostType> type = Catalog.hostType(name);
        if (type.isPresent()) {
            ClusterSpec spec = new ClusterSpec(type.get().name(), type.get().description(), type.get(), 1, null);
            return new BaseCluster(name, spec.build(), spec);
        }
        Optional<ClusterSpec> hosts = ClusterLoader.shorthand(name);
        if (hosts.isPresent()) {
            return new BaseCluster(name, hosts.get().build(), hosts.get());
        }
        return new BaseCluster(name, ClusterLoader.load(name), null);
    }

    /** Reads the spec fields of a YAML cluster that {@link ClusterLoader} has already validated. */
    private static Optional<ClusterSpec> specOf(Topology t, String yaml) {
        JsonNode root;
        try {
            root = new ObjectMapper(new YAMLFactory()).readTree(yaml);
        } catch (IOException e) {
            return Optional.empty();
        }
        if (root == null || !root.path("hosts").isTextual()) {
            return Optional.empty();
        }
        Optional<HostType> type = Catalog.hostType(root.path("hosts").asText());
        if (type.isEmpty()) {
            return Optional.empty();
        }
        int count = root.path("count").asInt(1);
        FabricSpec fabric = null;
        JsonNode f = root.path("fabric");
        if (f.isObject()) {
            FabricKind kind = FabricKind.parse(f.path("kind").asText());
            double ratio = f.has("oversubscription") ? FabricSpec.parseRatio(f.path("oversubscription").asText()) : 1;
            int radix = f.path("leafRadix").asInt(FabricSpec.DEFAULT_LEAF_RADIX);
            int planes = f.path("planes").asInt(1);
            Bandwidth speed = f.has("linkSpeed") ? Bandwidth.parse(f.path("linkSpeed").asText()) : null;
            Latency lat = f.has("switchLatency") ? Latency.parse(f.path("switchLatency").asText()) : null;
            fabric = new FabricSpec(kind, speed, ratio, radix, planes, lat);
        }
        return Optional.of(new ClusterSpec(t.name(), t.source(), type.get(), count, fabric));
    }

    /** @return GPUs per host of the base (from the spec, else from host 0) */
    public int gpusPerHost() {
        return spec != null ? spec.hostType().gpusPerHost() : topology.gpusOf(0).size();
    }
}
