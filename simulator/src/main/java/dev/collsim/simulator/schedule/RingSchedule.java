package dev.collsim.simulator.schedule;

import dev.collsim.nccl.Collective;
import java.util.ArrayList;
import java.util.List;

/**
 * NCCL's ring algorithm: AllReduce as ReduceScatter then AllGather, 2(n-1) steps; AllGather and ReduceScatter,
 * n-1 steps. In every step each rank sends one chunk of {@code S/n} bytes (split evenly over the channels) to
 * the next rank of the channel's ring, so each rank sends {@code 2(n-1)/n x S} for AllReduce and
 * {@code (n-1)/n x S} for AllGather/ReduceScatter (nccl-tests {@code doc/PERFORMANCE.md}, the bus bandwidth
 * factors). Every step moves the same pattern, so the schedule is one {@link Step} with {@code repeat} equal to
 * the step count: this is exact, not an approximation, because the ring sends equal chunks in every step.
 *
 * <p>Channel rings: channel c visits the hosts in rank order, and inside each group of {@code ranksPerHost}
 * ranks starts at local rank {@code c mod ranksPerHost}; so the host-to-host hop of channel c leaves from local
 * rank {@code (c-1) mod L} and enters at local rank {@code c mod L} (with {@code nicRanks} N > 0: at
 * {@code c mod N}, so every channel enters through a GPU with its own NIC), spreading the channels over the NICs as
 * NCCL's rings do (NCCL rings enter and leave a host through the channel's NIC; NCCL 2.30
 * {@code src/graph/search.cc}, {@code rings.cc}). With {@link ScheduleRequest#channelEntries} channel c enters
 * at the given local rank instead (a GPU local to NIC c mod NICs, {@code ChannelNics}), and with {@link
 * ScheduleRequest#reversedEntries} a channel may walk each host backwards so that it leaves from a GPU local to its
 * entry NIC, as NCCL's ring search closes a channel. Pipelining inside a step
 * (NCCL's slices) is not modelled: a step is synchronous.
 */
public final class RingSchedule implements ScheduleAlgorithm {

    @Override
    public String name() {
        return "Ring";
    }

    @Override
    public boolean supports(Collective c) {
        return c == Collective.ALL_REDUCE || c == Collective.ALL_GATHER || c == Collective.REDUCE_SCATTER;
    }

    @Override
    public Schedule schedule(ScheduleRequest r) {
        checkSupported(r);
        int n = r.nRanks();
        if (!r.movesData()) {
            return scheduleOf(r, List.of());
        }
        long steps = r.collective() == Collective.ALL_REDUCE ? 2L * (n - 1) : n - 1;
        double bytes = (double) r.sizeBytes() / n / r.nChannels();
        List<Transfer> transfers = r.hostGroups().isEmpty()
                ? ringTransfers(n, r.ranksPerHost(), entries(r), r.reversedEntries(), r.alternateRings(), r.nChannels(),
                        bytes)
                : groupedTransfers(r.hostGroups(), r.nChannels(), bytes);
        String label = r.collective() == Collective.ALL_REDUCE ? "ring ReduceScatter+AllGather step" : "ring step";
        return scheduleOf(r, List.of(new Step(label, transfers, steps)));
    }

    /**
     * @param r the request
     * @return the local rank channel c enters each host at, for c modulo the size: the request's channel entries
     *         when given, else local ranks 0 .. nicRanks-1 (every local rank when nicRanks is 0)
     */
    static List<Integer> entries(ScheduleRequest r) {
        if (!r.channelEntries().isEmpty()) {
            return r.channelEntries();
        }
        int rotations = r.nicRanks() > 0 ? r.nicRanks() : r.ranksPerHost();
        List<Integer> out = new ArrayList<>(rotations);
        for (int j = 0; j < rotations; j++) {
            out.add(j);
        }
        return out;
    }

    /**
     * The transfers of one ring step on every channel.
     *
     * @param n            ranks
     * @param ranksPerHost ranks per host group (1: no rotation)
     * @param entries      the local rank channel c enters each host at, for c modulo its size ({@link #entries})
     * @param reversed     per entry, whether the chain walks the host backwards, or empty for all forwards
     * @param alternate    whether odd host groups take entry {@code (c mod size) XOR 1} ({@link
     *                     ScheduleRequest#alternateRings})
     * @param nChannels    channels
     * @param bytes        bytes per transfer
     * @return {@code n x nChannels} transfers
     */
    static List<Transfer> ringTransfers(int n, int ranksPerHost, List<Integer> entries, List<Boolean> reversed,
            boolean alternate, int nChannels, double bytes) {
        List<Transfer> out = new ArrayList<>(n * nChannels);
        int l = ranksPerHost;
        for (int c = 0; c < nChannels; c++) {
            int[] order = new int[n];
            for (int g = 0; g < n / l; g++) {
                int e = alternate && g % 2 == 1 ? (c % entries.size()) ^ 1 : c % entries.size();
                int[] group = channelOrder(l, l, entries.get(e), !reversed.isEmpty() && reversed.get(e));
                for (int j = 0; j < l; j++) {
                    order[g * l + j] = g * l + group[j];
                }
            }
            for (int k = 0; k < n; k++) {
                out.add(new Transfer(order[k], order[(k + 1) % n], bytes, c));
            }
        }
        return out;
    }

    /**
     * Ring steps over host groups of different sizes: channel c starts each group of size L_g at its local rank
     * {@code c mod L_g}, as for equal groups.
     *
     * @param groups    sizes of consecutive rank groups sharing a host, summing to the ranks
     * @param nChannels channels
     * @param bytes     bytes per transfer
     * @return {@code n x nChannels} transfers
     */
    static List<Transfer> groupedTransfers(List<Integer> groups, int nChannels, double bytes) {
        int n = groups.stream().mapToInt(Integer::intValue).sum();
        List<Transfer> out = new ArrayList<>(n * nChannels);
        for (int c = 0; c < nChannels; c++) {
            int[] order = new int[n];
            int start = 0;
            for (int size : groups) {
                for (int j = 0; j < size; j++) {
                    order[start + j] = start + (j + c) % size;
                }
                start += size;
            }
            for (int k = 0; k < n; k++) {
                out.add(new Transfer(order[k], order[(k + 1) % n], bytes, c));
            }
        }
        return out;
    }

    /**
     * @param n            ranks
     * @param ranksPerHost group size L (must divide n)
     * @param channel      channel index c
     * @param backwards    true: each group walks down from its entry (c, c-1, ..., c+1 mod L)
     * @return the ring order of channel c: groups in order, each rotated to start at local rank {@code c mod L}
     */
    static int[] channelOrder(int n, int ranksPerHost, int channel, boolean backwards) {
        int l = ranksPerHost;
        int[] order = new int[n];
        for (int g = 0; g < n / l; g++) {
            for (int j = 0; j < l; j++) {
                int local = backwards ? ((channel - j) % l + l) % l : (j + channel) % l;
                order[g * l + j] = g * l + local;
            }
        }
        return order;
    }
}
