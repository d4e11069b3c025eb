package dev.collsim.simulator.schedule;

import dev.collsim.nccl.Collective;
import java.util.List;
import java.util.Objects;
import java.util.stream.IntStream;

/**
 * What an algorithm needs to build a schedule: the collective, its size and the shape of the rank space.
 *
 * @param collective   the collective
 * @param sizeBytes    nccl-tests size column in bytes (AllReduce: the buffer; AllGather/ReduceScatter: the whole
 *                     gathered buffer, nRanks x the per-rank part; AllToAll: each rank's send buffer), {@code >= 0}
 * @param nRanks       ranks, {@code >= 1}
 * @param nChannels    NCCL channels, {@code >= 1}
 * @param ranksPerHost consecutive ranks that share a host (hierarchical and tree algorithms group by it; ring
 *                     rotates each channel's order inside the group); {@code >= 1} and dividing {@code nRanks},
 *                     or 1 when ranks are not grouped
 * @param nicRanks     local ranks 0 .. nicRanks-1 of each group have a NIC of their own (the others reach the
 *                     network through them); the ring then enters and leaves hosts only through those, as NCCL's
 *                     search puts channels on GPUs next to a NIC; 0 (default) means every local rank has one
 * @param hostGroups   when not empty: the sizes of consecutive rank groups that share a host, for placements that
 *                     give hosts different numbers of ranks ({@code ranksPerHost} is then 1); the ring rotates
 *                     each channel inside every group as it does for equal groups; other schedules ignore it
 * @param channelEntries when not empty: the local rank ring channel c enters each host group at, for c modulo its
 *                     size (NCCL's channel-to-NIC spreading, {@code dev.collsim.simulator.ChannelNics}); it replaces
 *                     the rotation over {@code nicRanks} or every local rank; the tree schedule takes entry i mod
 *                     size as the head of its channel pair i; other schedules ignore it
 * @param reversedEntries when not empty, one per element of {@code channelEntries}: true when that channel's chain
 *                     walks the host backwards (entry, entry-1, ..., entry+1) and leaves from entry+1, a GPU local
 *                     to the entry's NIC, as NCCL's ring search closes it ({@code ChannelNics#reversed}); empty: every
 *                     chain forwards, leaving from entry-1; other schedules ignore it
 * @param heads        when not empty: the local ranks that cross hosts in the hierarchical schedule, ascending, one
 *                     per NIC (NCCL's NVLS heads, {@code dev.collsim.simulator.ChannelNics#heads}); empty: local
 *                     ranks 0 .. nicRanks-1, or every local rank when nicRanks is 0; other schedules ignore it
 * @param alternateRings true: on every odd host group ring channel c takes the entry and direction of channel
 *                     {@code c mod size} XOR 1 of {@code channelEntries} (an even count of them), as NCCL alternates
 *                     the rings of a crossNic-2 graph on odd nodes so that a channel stays on one rail between nodes
 *                     (NCCL 2.30 {@code src/graph/connect.cc ncclTopoPostset}: "Alternate rings to avoid crossing
 *                     rails"); other schedules ignore it
 */
public record ScheduleRequest(Collective collective, long sizeBytes, int nRanks, int nChannels, int ranksPerHost,
        int nicRanks, List<Integer> hostGroups, List<Integer> channelEntries, List<Boolean> reversedEntries,
        List<Integer> heads, boolean alternateRings) {

    /** No alternation of rings on odd hosts. */
    public ScheduleRequest(Collective collective, long sizeBytes, int nRanks, int nChannels, int ranksPerHost,
            int nicRanks, List<Integer> hostGroups, List<Integer> channelEntries, List<Boolean> reversedEntries,
            List<Integer> heads) {
        this(collective, sizeBytes, nRanks, nChannels, ranksPerHost, nicRanks, hostGroups, channelEntries,
                reversedEntries, heads, false);
    }

    /**
     * No chain reversed, no heads given: every ring chain walks forwards, and the hierarchical schedule crosses hosts
     * from local ranks 0 .. nicRanks-1 (or all).
     */
    public ScheduleRequest(Collective collective, long sizeBytes, int nRanks, int nChannels, int ranksPerHost,
            int nicRanks, List<Integer> hostGroups, List<Integer> channelEntries) {
        this(collective, sizeBytes, nRanks, nChannels, ranksPerHost, nicRanks, hostGroups, channelEntries, List.of(),
                List.of());
    }

    /** No channel entries given: the ring rotates over {@code nicRanks} or every local rank. */
    public ScheduleRequest(Collective collective, long sizeBytes, int nRanks, int nChannels, int ranksPerHost,
            int nicRanks, List<Integer> hostGroups) {
        this(collective, sizeBytes, nRanks, nChannels, ranksPerHost, nicRanks, hostGroups, List.of());
    }

    /** Every local rank has a NIC ({@code nicRanks} 0). */
    public ScheduleRequest(Collective collective, long sizeBytes, int nRanks, int nChannels, int ranksPerHost) {
        this(collective, sizeBytes, nRanks, nChannels, ranksPerHost, 0);
    }

    /** Equal host groups of {@code ranksPerHost}. */
    public ScheduleRequest(Collective collective, long sizeBytes, int nRanks, int nChannels, int ranksPerHost,
            int nicRanks) {
        this(collective, sizeBytes, nRanks, nChannels, ranksPerHost, nicRanks, List.of());
    }

    /** @throws IllegalArgumentException on a value outside the ranges above */
    public ScheduleRequest {
        Objects.requireNonNull(collective, "collective");
        if (sizeBytes < 0) {
            throw new IllegalArgumentException("sizeBytes must be >= 0, got " + sizeBytes);
        }
        if (nRanks < 1 || nChannels < 1 || ranksPerHost < 1) {
            throw new IllegalArgumentException("nRanks, nChannels, ranksPerHost must be >= 1, got " + nRanks + ", "
                    + nChannels + ", " + ranksPerHost);
        }
        if (nicRanks < 0 || nicRanks > ranksPerHost) {
            throw new IllegalArgumentException("nicRanks must be in [0, ranksPerHost " + ranksPerHost + "], got "
                    + nicRanks);
        }
        hostGroups = List.copyOf(Objects.requireNonNull(hostGroups, "hostGroups"));
        if (!hostGroups.isEmpty() && (ranksPerHost != 1 || hostGroups.stream().anyMatch(g -> g < 1)
                || hostGroups.stream().mapToInt(Integer::intValue).sum() != nRanks)) {
            throw new IllegalArgumentException("hostGroups " + hostGroups + " must be sizes >= 1 summing to nRanks "
                    + nRanks + ", with ranksPerHost 1");
        }
        channelEntries = List.copyOf(Objects.requireNonNull(channelEntries, "channelEntries"));
        if (channelEntries.stream().anyMatch(e -> e < 0 || e >= ranksPerHost)) {
            throw new IllegalArgumentException("channelEntries " + channelEntries + " must be local ranks in [0, "
                    + ranksPerHost + ")");
        }
        reversedEntries = List.copyOf(Objects.requireNonNull(reversedEntries, "reversedEntries"));
        if (!reversedEntries.isEmpty() && reversedEntries.size() != channelEntries.size()) {
            throw new IllegalArgumentException("reversedEntries " + reversedEntries + " must have one flag per channel"
                    + " entry " + channelEntries);
        }
        heads = List.copyOf(Objects.requireNonNull(heads, "heads"));
        if (alternateRings && channelEntries.size() % 2 != 0) {
            throw new IllegalArgumentException("alternateRings needs an even number of channel entries, got "
                    + channelEntries);
        }
        for (int i = 0; i < heads.size(); i++) {
            if (heads.get(i) < 0 || heads.get(i) >= ranksPerHost || i > 0 && heads.get(i) <= heads.get(i - 1)) {
                throw new IllegalArgumentException("heads " + heads + " must be ascending local ranks in [0, "
                        + ranksPerHost + ")");
            }
        }
        if (nRanks % ranksPerHost != 0) {
            throw new IllegalArgumentException("ranksPerHost " + ranksPerHost + " does not divide nRanks " + nRanks);
        }
    }

    /** @return false when there is nothing to move (one rank, or zero bytes): the schedule then has no steps */
    public boolean movesData() {
        return nRanks > 1 && sizeBytes > 0;
    }

    /**
     * @return the local ranks that cross hosts in the hierarchical schedule: {@link #heads} when given, else local
     *         ranks 0 .. nicRanks-1, or every local rank when nicRanks is 0
     */
    public int[] headRanks() {
        if (!heads.isEmpty()) {
            return heads.stream().mapToInt(Integer::intValue).toArray();
        }
        return IntStream.range(0, nicRanks > 0 ? nicRanks : ranksPerHost).toArray();
    }

    /** @return number of hosts, {@code nRanks / ranksPerHost} */
    public int hosts() {
        return nRanks / ranksPerHost;
    }
}
