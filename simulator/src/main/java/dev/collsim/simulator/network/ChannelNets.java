package dev.collsim.simulator.network;

import java.util.List;
import java.util.Objects;

/**
 * Which NICs each ring channel of a job crosses hosts by, as NCCL's multi-node graph gives them
 * ({@code dev.collsim.simulator.channel.RingChannel}, read from collsim's copy of NCCL's search; NCCL 2.30 {@code
 * src/graph/search.cc ncclTopoGetNetDev}): channel c's data leaves a host by NIC {@code exit(c)}, from its sender over
 * PXN when that NIC is not local to it, and enters the next host by NIC {@code entry(c)}. A NIC is named by its
 * position among its host's NICs in the topology's device order (by id), the same NIC on every host built from one
 * description. Empty: the router picks NICs itself ({@link Router}). This record is immutable.
 *
 * @param entry per channel c modulo the size: the position of the NIC it enters a host by
 * @param exit  per channel as {@code entry}: the position of the NIC it leaves a host by
 */
public record ChannelNets(List<Integer> entry, List<Integer> exit) {

    /** No NICs given: the router's own choice. */
    public static final ChannelNets NONE = new ChannelNets(List.of(), List.of());

    /** @throws IllegalArgumentException when the lists differ in size or hold a negative position */
    public ChannelNets {
        entry = List.copyOf(Objects.requireNonNull(entry, "entry"));
        exit = List.copyOf(Objects.requireNonNull(exit, "exit"));
        if (entry.size() != exit.size() || entry.stream().anyMatch(n -> n < 0) || exit.stream().anyMatch(n -> n < 0)) {
            throw new IllegalArgumentException("channel NICs must pair up and be >= 0: entry " + entry + ", exit "
                    + exit);
        }
    }

    /** @return true when no NIC is given */
    public boolean isEmpty() {
        return entry.isEmpty();
    }

    /** @param channel NCCL channel, >= 0; @return the position of the NIC it enters a host by */
    public int entry(int channel) {
        return entry.get(channel % entry.size());
    }

    /** @param channel NCCL channel, >= 0; @return the position of the NIC it leaves a host by */
    public int exit(int channel) {
        return exit.get(channel % exit.size());
    }
}
