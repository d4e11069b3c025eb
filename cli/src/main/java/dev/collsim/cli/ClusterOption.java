package dev.collsim.cli;

import dev.collsim.io.InputException;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The {@code -c/--cluster} option every command that needs a cluster shares (a picocli mixin: add
 * {@code @Mixin ClusterOption cluster;} to a command). It accepts a file path (YAML cluster spec, nvidia-smi topo -m
 * text or NCCL topology XML, detected by content), a shipped config name (e.g. {@code dgx-h100-32x-rail}) or a catalog
 * host type name (e.g. {@code dgx-h100}); the default is the built-in {@code default} cluster.
 */
public final class ClusterOption {

    @Mixin
    private HardwareHintsOptions hardware = new HardwareHintsOptions();

    @Option(names = {"-c", "--cluster"}, paramLabel = "CLUSTER", defaultValue = ClusterLoader.DEFAULT,
            description = "Cluster: a file (YAML, nvidia-smi topo -m text or NCCL topology XML), a config name"
                    + " (configs/NAME.yaml), a catalog host type, or N hosts of one as NAMExN or NAME:N (dgx-h100x2,"
                    + " dgx-h100:2; rail-optimized fabric). Default: ${DEFAULT-VALUE}.")
    private String cluster = ClusterLoader.DEFAULT;

    /** @return what the user passed (or {@code default}) */
    public String value() {
        return cluster;
    }

    /**
     * Loads the cluster.
     *
     * @return the topology
     * @throws InputException when the cluster cannot be resolved or its description has problems (exit code 3)
     */
    public Topology load() throws InputException {
        dev.collsim.topology.io.HardwareHints hints = hardware.hints();
        if (!hints.equals(dev.collsim.topology.io.HardwareHints.NONE)
                && !java.nio.file.Files.isRegularFile(java.nio.file.Path.of(cluster.trim()))) {
            // the hints fill in facts a machine file lacks; a config or catalog cluster has them all, so they would
            // be silently ignored
            throw new UserError("--gpu-model, --gpu-sm, --nic-speed, --pcie-gen and --cpu-vendor only fill in facts"
                    + " a machine file (nvidia-smi topo -m text, NCCL topology XML) lacks; -c " + cluster + " is a"
                    + " config or catalog cluster, which has them. For a NIC-speed what-if use --backend flow"
                    + " --fabric KIND --link-speed BW, or a report variant's nic-speed", ExitCodes.USAGE);
        }
        return ClusterLoader.load(cluster, hints);
    }
}
