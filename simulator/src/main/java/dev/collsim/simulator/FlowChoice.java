package dev.collsim.simulator;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.simulator.network.ChannelNets;
import dev.collsim.simulator.network.Job;
import dev.collsim.simulator.network.Placement;
import dev.collsim.simulator.perf.NvlsLoop;
import dev.collsim.simulator.schedule.DirectAllToAllSchedule;
import dev.collsim.simulator.schedule.HierarchicalSchedule;
import dev.collsim.simulator.schedule.RingSchedule;
import dev.collsim.simulator.schedule.Schedule;
import dev.collsim.simulator.schedule.ScheduleAlgorithm;
import dev.collsim.simulator.schedule.ScheduleAlgorithms;
import dev.collsim.simulator.schedule.ScheduleRequest;
import dev.collsim.simulator.schedule.TreeSchedule;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Gpu;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What the flow backend simulates for one collective: the schedule, its channel count, and the order and grouping
 * of the ranks along it. The one place where that choice is made, for {@code collsim predict --backend flow|links}
 * ({@link FlowSweep}) and for the report's flow variants ({@link FlowPredictor}).
 *
 * <p>By default it is NCCL's choice: the schedule that moves the data as NCCL's chosen algorithm does
 * ({@link ScheduleAlgorithms#forNccl}) with NCCL's channel count; the algorithm and protocol shown are NCCL's.
 * An {@link Override} replaces the schedule and/or the channel count. A replaced schedule without a channel count
 * gets one channel per NIC: the GPUs per host (every NIC carries one channel's host-to-host hop), the widest host
 * group for a ring over unequal groups, twice the GPUs per host for a tree (NCCL runs each search channel once per
 * tree of its double binary tree, so the two trees share one NIC: NCCL 2.30 {@code src/graph/connect.cc}).
 *
 * @param schedule     the schedule algorithm simulated
 * @param nChannels    channels, {@code >= 1}
 * @param order        the GPUs in the order the schedule walks them: NCCL's topology order
 *                     ({@link Placement#topologyOrder}) unless rank order is asked; for direct AllToAll too, as
 *                     NCCL's p2p rounds pair node-local ranks of nodes ({@link DirectAllToAllSchedule}), not rank
 *                     numbers
 * @param ranksPerHost consecutive ranks of {@code order} that share a host ({@link Placement#ranksPerHost})
 * @param nicRanks     local ranks with a cabled NIC of their own (0: all), see {@link ScheduleRequest#nicRanks}
 * @param hostGroups   unequal host groups of a ring ({@link ScheduleRequest#hostGroups}), or empty
 * @param algorithm    the NCCL algorithm shown (NCCL's, or the one the replaced schedule stands for; null: none)
 * @param protocol     NCCL's protocol when the algorithm is NCCL's choice, else null
 * @param ncclChoice   true when the schedule is NCCL's choice (no schedule override)
 * @param channelEntries the local rank each ring channel enters a host at ({@link ChannelNics#entries}), or empty
 *                     for the rotation over {@code nicRanks}; see {@link ScheduleRequest#channelEntries}
 * @param reversedEntries per channel entry, whether that ring channel walks the host backwards ({@link
 *                     ChannelNics#reversed}), or empty; see {@link ScheduleRequest#reversedEntries}
 * @param heads        the local ranks that cross hosts in the hierarchical schedule ({@link ChannelNics#heads}), or
 *                     empty for local ranks 0 .. nicRanks-1 (all when 0); see {@link ScheduleRequest#heads}
 * @param nets         the NICs each ring channel leaves and enters a host by, from NCCL's multi-node ring graph
 *                     ({@link ChannelNics#searched}; ring schedule only), or {@link ChannelNets#NONE}: the jobs built
 *                     from this choice carry them ({@link #job})
 */
public record FlowChoice(ScheduleAlgorithm schedule, int nChannels, List<Gpu> order, int ranksPerHost,
        int nicRanks, List<Integer> hostGroups, Algorithm algorithm, Protocol protocol, boolean ncclChoice,
        List<Integer> channelEntries, List<Boolean> reversedEntries, List<Integer> heads, ChannelNets nets) {

    /**
     * Explicit replacements of NCCL's choice.
     *
     * @param schedule the schedule to simulate, or null for NCCL's
     * @param channels the channel count, or null for the default above
     */
    public record Override(ScheduleAlgorithm schedule, Integer channels) {

        /** NCCL's choice, nothing replaced. */
        public static final Override NONE = new Override(null, null);

        /** @throws IllegalArgumentException when channels is below 1 */
        public Override {
            if (channels != null && channels < 1) {
                throw new IllegalArgumentException("channels must be >= 1, got " + channels);
            }
        }

        /**
         * @param scheduleName a schedule name ({@link ScheduleAlgorithms#byName}), or null for NCCL's
         * @param channels     channel count, or null
         * @param collective   the collective the schedule must move
         * @return the override
         * @throws IllegalArgumentException on an unknown name, a schedule that does not support the collective
         *                                  (naming those that do), or channels below 1
         */
        public static Override of(String scheduleName, Integer channels, Collective collective) {
            ScheduleAlgorithm a = scheduleName == null ? null : ScheduleAlgorithms.byName(scheduleName);
            if (a != null && !a.supports(collective)) {
                throw new InvalidRequestException(a.name() + " has no schedule for " + collective.ncclName() + "; "
                        + ScheduleAlgorithms.supporting(collective));
            }
            return new Override(a, channels);
        }
    }

    /** @throws IllegalArgumentException when nChannels is below 1 */
    public FlowChoice {
        Objects.requireNonNull(schedule, "schedule");
        order = List.copyOf(order);
        hostGroups = List.copyOf(hostGroups);
        channelEntries = List.copyOf(channelEntries);
        reversedEntries = List.copyOf(reversedEntries);
        heads = List.copyOf(heads);
        Objects.requireNonNull(nets, "nets");
        if (nChannels < 1) {
            throw new IllegalArgumentException("nChannels must be >= 1, got " + nChannels);
        }
    }

    /**
     * @param collective the collective
     * @param nccl       NCCL's choice for the point (its algorithm, protocol and channels are used unless replaced);
     *                   may be null when the override replaces both schedule and channels
     * @param override   what to replace
     * @param ranks      GPU of each rank, in rank order
     * @param rankOrder  true: schedules walk the ranks in rank numbers, not NCCL's topology order
     * @param rails      cabled compute NICs per host when only some are (0: all)
     * @param release    the NCCL release modelled: a Tree schedule follows its chunk rule for NCCL's protocol
     *                   ({@link TreeSchedule#halvesTreeChunk})
     * @return the choice, or empty when no schedule here moves NCCL's choice (Broadcast, Reduce, SendRecv, ...)
     * @throws IllegalArgumentException when the override's schedule does not support the collective
     */
    public static Optional<FlowChoice> decide(Collective collective, Prediction nccl, Override override,
            List<Gpu> ranks, boolean rankOrder, int rails, NcclVersion release) {
        return decide(collective, nccl, override, ranks, rankOrder, rails, release, Optional.empty());
    }

    /**
     * As {@link #decide(Collective, Prediction, Override, List, boolean, int, NcclVersion)}, with NCCL's NVLS loop of
     * the call ({@link CollectivePredictor#nvlsLoop}): NCCL's NVLS and NVLSTree are then simulated in NCCL's chunks
     * with its per-iteration cost, and NVLSTree crosses hosts over NCCL's double binary tree
     * ({@link #ncclHierarchical}).
     *
     * @param loop NCCL's loop of the call, or empty (chunks of NCCL_NVLS_CHUNKSIZE's default, no per-step cost)
     * @return the choice, or empty as there
     */
    public static Optional<FlowChoice> decide(Collective collective, Prediction nccl, Override override,
            List<Gpu> ranks, boolean rankOrder, int rails, NcclVersion release, Optional<NvlsLoop.Call> loop) {
        return decide(collective, nccl, override, ranks, rankOrder, release, loop,
                ChannelNics.Layout.ofNicRanks(rails));
    }

    /**
     * As {@link #decide(Collective, Prediction, Override, List, boolean, int, NcclVersion, Optional)}, with the
     * host's NIC layout ({@link ChannelNics#of}): the ranks with a NIC of their own (its {@code nicRanks}, the
     * {@code rails} there), the local rank each ring channel enters a host at and the NVLS heads of the hierarchical
     * schedule (both ignored with rank order, whose host groups are not NCCL's topology order, and when hosts' rank
     * counts differ).
     *
     * @param nics the host's NIC layout
     * @return the choice, or empty as there
     */
    public static Optional<FlowChoice> decide(Collective collective, Prediction nccl, Override override,
            List<Gpu> ranks, boolean rankOrder, NcclVersion release, Optional<NvlsLoop.Call> loop,
            ChannelNics.Layout nics) {
        int rails = nics.nicRanks();
        Optional<ScheduleAlgorithm> algo = override.schedule() != null ? Optional.of(override.schedule())
                : ScheduleAlgorithms.forNccl(nccl.algorithm(), collective);
        if (algo.isEmpty()) {
            return Optional.empty();
        }
        ScheduleAlgorithm a = algo.get() instanceof TreeSchedule
                ? new TreeSchedule(release, override.schedule() == null ? nccl.protocol() : null) : algo.get();
        if (a instanceof HierarchicalSchedule && override.schedule() == null) {
            a = ncclHierarchical(nccl.algorithm(), loop);
        }
        if (!a.supports(collective)) {
            throw new InvalidRequestException(a.name() + " has no schedule for " + collective.ncclName() + "; "
                    + ScheduleAlgorithms.supporting(collective));
        }
        List<Gpu> order = rankOrder ? ranks : Placement.topologyOrder(ranks);
        int perHost = Placement.ranksPerHost(order);
        List<Integer> groups = a instanceof RingSchedule && perHost == 1 ? Placement.hostGroups(order) : List.of();
        int nicRanks = rails > 0 && perHost > 1 && rails < perHost ? rails : 0;
        int nCh;
        if (override.channels() != null) {
            nCh = override.channels();
        } else if (override.schedule() == null) {
            nCh = Math.max(1, nccl.nChannels());
        } else {
            int widest = groups.stream().mapToInt(Integer::intValue).max().orElse(perHost);
            nCh = a instanceof TreeSchedule ? 2 * perHost : widest;
        }
        boolean ncclAlgo = override.schedule() == null;
        boolean grouped = !rankOrder && groups.isEmpty() && perHost > 1;
        return Optional.of(new FlowChoice(a, nCh, order, perHost, nicRanks, groups,
                ncclAlgo ? nccl.algorithm() : ScheduleAlgorithms.ncclAlgorithm(a), ncclAlgo ? nccl.protocol() : null,
                ncclAlgo, grouped ? nics.entries() : List.of(), grouped ? nics.reversed() : List.of(),
                grouped ? nics.heads() : List.of(),
                grouped && a instanceof RingSchedule && !nics.entries().isEmpty() ? nics.nets() : ChannelNets.NONE));
    }

    /**
     * The hierarchical schedule that moves NCCL's NVLS, NVLSTree or CollNet AllReduce. NVLSTree crosses nodes over
     * NCCL's double binary tree (NCCL 2.28.9 {@code src/graph/connect.cc connectNvls}, {@code
     * src/device/all_reduce.h}; {@code schedule.InterHost}), the others over a ring per rail. Where NCCL's loop is
     * known (NVLS and NVLSTree with Simple) the pipeline is cut into its iterations, heads x chunk per channel, and
     * each step pays its per-iteration cost, the same {@link NvlsLoop} figures the analytical time charges; CollNet
     * keeps NCCL_NVLS_CHUNKSIZE's default chunk and no per-step cost.
     *
     * @param algorithm NCCL's algorithm (NVLS, NVLSTree, CollNet Direct or Chain)
     * @param loop      NCCL's loop of the call, or empty
     * @return the schedule
     */
    static HierarchicalSchedule ncclHierarchical(Algorithm algorithm, Optional<NvlsLoop.Call> loop) {
        long loopBytes = loop.map(c -> c.heads() * c.chunkBytes()).orElse(0L);
        double loopUs = loop.map(NvlsLoop.Call::loopUs).orElse(0.0);
        return new HierarchicalSchedule(loopBytes, algorithm == Algorithm.NVLS_TREE, loopUs);
    }

    /**
     * @param collective the collective
     * @param sizeBytes  nccl-tests size, bytes
     * @return the schedule of this choice for that size
     */
    public Schedule build(Collective collective, long sizeBytes) {
        return schedule.schedule(new ScheduleRequest(collective, sizeBytes, order.size(), nChannels, ranksPerHost,
                nicRanks, hostGroups, channelEntries, reversedEntries, heads, nets.alternate()));
    }

    /**
     * @param name       the job's name
     * @param collective the collective
     * @param sizeBytes  nccl-tests size, bytes
     * @param startUs    start, microseconds
     * @return a flow-backend job of this choice ({@link #build}, {@link #order}) crossing hosts by {@link #nets}
     */
    public Job job(String name, Collective collective, long sizeBytes, double startUs) {
        return new Job(name, build(collective, sizeBytes), order, startUs, nets);
    }

    /**
     * NCCL's algorithm names the run when it is NCCL's choice, as the table's algo column does; where collsim moves
     * its data with a schedule of another name (NVLS, NVLSTree and CollNet as the hierarchical one) that is added.
     *
     * @return e.g. {@code Ring, 16 channels (NCCL's choice: Ring/Simple)}, {@code NVLSTree, 16 channels (NCCL's
     *         choice: NVLSTree/Simple; simulated as the Hierarchical schedule)} or {@code Tree, 16 channels (schedule
     *         given)}
     */
    public String describe() {
        String nccl = algorithm == null ? "p2p" : algorithm.ncclName();
        if (!ncclChoice) {
            return String.format(Locale.ROOT, "%s, %d channels (schedule given)", schedule.name(), nChannels);
        }
        String as = algorithm == null || nccl.equals(schedule.name()) ? ""
                : "; simulated as the " + schedule.name() + " schedule";
        return String.format(Locale.ROOT, "%s, %d channels (NCCL's choice: %s%s%s)", algorithm == null
                ? schedule.name() : nccl, nChannels, nccl, protocol == null ? "" : "/" + protocol.ncclName(), as);
    }

    /**
     * @return the prefix of a table's bottleneck naming a given hierarchical schedule's phases (the table then shows
     *         it in the algo column), empty for NCCL's choice (the column shows NCCL's algorithm) and other schedules
     */
    public String phasesPrefix() {
        return schedule instanceof HierarchicalSchedule && !ncclChoice ? "hier:rs-ar-ag " : "";
    }

    /** @return the rank grouping in words: {@code 8 per host group} or {@code host groups of [3, 5]} */
    public String grouping() {
        return hostGroups.isEmpty() ? ranksPerHost + " per host group" : "host groups of " + hostGroups;
    }

    /**
     * The schedules other than the ring rotate channels only inside equal host groups; when the placement gives
     * hosts different numbers of ranks (e.g. random placement of fewer ranks than GPUs) every channel crosses hosts
     * through the same GPUs: a slower result than NCCL, which builds its rings per host whatever the counts.
     *
     * @return a one-line warning naming the counts, or empty
     */
    public Optional<String> unevenHostsWarning() {
        Map<Integer, Integer> perHost = new TreeMap<>();
        order.forEach(g -> perHost.merge(g.host(), 1, Integer::sum));
        if (schedule instanceof RingSchedule || ranksPerHost > 1 || perHost.values().stream().distinct().count() == 1) {
            return Optional.empty();
        }
        return Optional.of("Warning: the placement gives hosts different numbers of ranks (ranks per host "
                + perHost.values() + "), so the schedule cannot spread channels over each host's GPUs and NICs and"
                + " uses them as one rank per host group: slower than NCCL would be. Use --placement contiguous, or a"
                + " hostfile with equal slots per host");
    }
}
