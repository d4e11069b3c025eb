package dev.collsim.simulator.network;

import java.util.List;
import java.util.Objects;

/**
 * Which NICs each ring channel of a job crosses hosts by, as NCCL's multi-node graph gives them
 * ({@code dev.collsim.simulator.channel.RingChannel}, read from collsim's copy of NCCL's search; NCCL 2.30 {@code
 * src/graph/search.cc ncclTopoGetNetDev}): channel c's data leaves a host by NIC {@code exit(c)}, from its sender over
 * PXN when that NIC is not local to it, and enters the next host by NIC {@code entry(c)}. A NIC is named by its
 * position among its host's NICs in NCCL's NET device order ({@code Topology#nicsOf}, {@code Nic#NET_DEV_ORDER}),
 * the same NIC on every host built from one description. With {@code alternate} (a crossNic-2 graph of an even channel count) every odd node runs channel c on
 * graph channel {@code (c mod size) XOR 1}, as NCCL does so that a channel stays on one rail between nodes (NCCL 2.30
 * {@code src/graph/connect.cc ncclTopoPostset}: "Alternate rings to avoid crossing rails"): on a DGX H100 channel 0
 * leaves an even node by NIC 7 and enters the next, odd, node by NIC 7. Empty: the router picks NICs itself
 * ({@link Router}). This record is immutable.
 *
 * @param entry        per graph channel: the position of the NIC it enters a host by
 * @param exit         per graph channel as {@code entry}: the position of the NIC it leaves a host by
 * @param ranksPerNode consecutive ranks of the job on one node (a rank's node is rank / ranksPerNode), >= 1
 * @param alternate    whether odd nodes swap graph channels 2i and 2i + 1 (needs an even count)
 */
public record ChannelNets(List<Integer> entry, List<Integer> exit, int ranksPerNode, boolean alternate) {

    /** No NICs given: the router's own choice. */
    public static final ChannelNets NONE = new ChannelNets(List.of(), List.of(), 1, false);

    /** @throws IllegalArgumentException when the lists differ in size or hold a negative position, ranksPerNode is
     *                                  below 1, or alternate meets an odd count */
    public ChannelNets {
        entry = List.copyOf(Objects.requireNonNull(entry, "entry"));
        exit = List.copyOf(Objects.requireNonNull(exit, "exit"));
        if (entry.size() != exit.size() || entry.stream().anyMatch(n -> n < 0) || exit.stream().anyMatch(n -> n < 0)) {
            throw new IllegalArgumentException("channel NICs must pair up and be >= 0: entry " + entry + ", exit "
                    + exit);
        }
        if (ranksPerNode < 1 || alternate && entry.size() % 2 != 0) {
            throw new IllegalArgumentException("ranksPerNode " + ranksPerNode + " must be >= 1 and alternation needs"
                    + " an even channel count, got " + entry.size());
        }
    }

    /**
     * @param channel NCCL channel, >= 0
     * @param rank    a rank of the job
     * @return the graph channel the rank's node runs channel {@code channel} on
     */
    public int graphChannel(int channel, int rank) {
        int k = channel % entry.size();
        return alternate && (rank / ranksPerNode) % 2 == 1 ? k ^ 1 : k;
    }

    /** @return true when no NIC is given */
    public boolean isEmpty() {
        return entry.isEmpty();
    }

    /**
     * @param channel NCCL channel, >= 0
     * @param rank    the receiving rank
     * @return the position of the NIC the channel enters the rank's host by
     */
    public int entry(int channel, int rank) {
        return entry.get(graphChannel(channel, rank));
    }

    /**
     * @param channel NCCL channel, >= 0
     * @param rank    the sending rank
     * @return the position of the NIC the channel leaves the rank's host by
     */
    public int exit(int channel, int rank) {
        return exit.get(graphChannel(channel, rank));
    }
}
