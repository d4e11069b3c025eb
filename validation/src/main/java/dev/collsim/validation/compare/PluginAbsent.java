package dev.collsim.validation.compare;

import java.util.regex.Pattern;

/**
 * A run on HPE Slingshot that says NCCL ran without its network plugin (aws-ofi-nccl, or the container hook that
 * loads it): NCCL then ran on its own TCP sockets, and the run is modelled on the socket class. Stateless.
 *
 * <p>Why sockets. NCCL reaches a Slingshot NIC only through a net plugin: the NIC's RDMA is libfabric's {@code cxi}
 * provider, which aws-ofi-nccl presents to NCCL as the net {@code AWS Libfabric}; a Cassini NIC has no IB verbs
 * device. Without a plugin NCCL tries its internal networks in order (NCCL 2.30.7 {@code src/plugin/net.cc}: the
 * plugin, then {@code IB}, then {@code Socket}); {@code IB} finds no verbs device ({@code NET/IB : No device found}),
 * so {@code Socket} runs over the node's IP interfaces (the Slingshot NICs' {@code hsn} Ethernet interfaces), kernel
 * TCP through host memory. CSCS says so for Alps (eth-cscs/cscs-docs {@code docs/software/communication/nccl.md}:
 * set {@code NCCL_NET="AWS Libfabric"} so that a missing plugin stops the application "instead of falling back to
 * e.g. TCP, which would be significantly slower than with the plugin"); its own run without the hook
 * (A-allreduce-2x4xGH200-cscs-alps-slingshot-plugin-hook-vs-none.txt, run 2) sets no NCCL_NET.
 *
 * <p>Read on the run's label only (its title names this run; a header's text may describe several runs). The words:
 * a plugin or hook "not enabled/loaded/found/used", "without" a plugin or hook, "no" plugin or hook.
 */
final class PluginAbsent {

    /** Where the class was read, for the assumption line. */
    static final String FROM = "the run's label (HPE Slingshot without its aws-ofi-nccl plugin: NCCL falls back to"
            + " its Socket transport, kernel TCP)";

    private static final Pattern ABSENT = Pattern.compile("(?i)\\b(?:plugin|hook)s?\\s+(?:is\\s+|was\\s+)?not\\s+"
            + "(?:enabled|loaded|found|used)|\\bwithout\\s+(?:the\\s+)?(?:[\\w-]+\\s+){0,3}(?:plugin|hook)s?\\b"
            + "|\\bno\\s+(?:[\\w-]+\\s+){0,2}(?:plugin|hook)s?\\b");

    private PluginAbsent() {
    }

    /**
     * @param label the run's title
     * @return true when it says the network plugin (or the hook that loads it) was not in use
     */
    static boolean says(String label) {
        return label != null && ABSENT.matcher(label).find();
    }
}
