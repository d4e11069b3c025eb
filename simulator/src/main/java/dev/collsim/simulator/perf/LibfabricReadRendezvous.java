package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import java.util.Locale;
import java.util.Optional;

/**
 * The rendezvous of each network send on the EFA hosts whose plugin runs its SENDRECV protocol over an RDMA-read
 * device (A100 p4d, p4de: {@link LibfabricEagerCopy#provider}): a Tree/Simple connection's sends follow one another,
 * each waiting {@link #EFA_RENDEZVOUS_US} before its bytes move at the connection's share of the NICs' full line
 * rate, so the network rate of a call of k sends per connection is the line rate x k m / (k m + (k - 1) t0 r), where m
 * is the bytes of a send, t0 the rendezvous and r the connection's share of the node's NIC rate (node rate / channels,
 * at most one NIC's). The first send's wait is the crossing's own latency ({@link NetHops#latencyCharges}, the class's
 * hop latency), charged in the latency term; the later k - 1 are charged here. Where it applies it takes the place of
 * the class's line-rate share ({@link NetClassProfile#bwFraction}), which was read on these two runs at 1 GiB and is
 * this rule at 512 KiB sends: 524288 / (524288 + 16 us x 6.25 GB/s) = 0.840 (measured 0.813 and 0.828).
 *
 * <p>What the source shows (ofiwg/libfabric v1.22.0, {@code prov/efa}): aws-ofi-nccl's SENDRECV protocol posts each
 * NCCL network send as one tagged message ({@code fi_tsend}, aws/aws-ofi-nccl v1.13.2-aws
 * {@code src/nccl_ofi_sendrecv.c}); a message from CUDA memory above the eager payload is a read message
 * ({@code efa_rdm_msg.c efa_rdm_msg_select_rtm}; {@code efa_hmem.c}: {@code min_read_msg_size} is the eager payload +
 * 1 for {@code FI_HMEM_CUDA}), a long read whenever another read message of the domain is in flight
 * ({@code efa_rdm_peer.c efa_rdm_peer_select_readbase_rtm}): the sender's request packet reaches the receiver, which
 * matches it to a posted receive and reads the data from the sender's memory ({@code efa_rdm_ope.c
 * efa_rdm_ope_post_read}), then returns an end-of-read packet that completes the send. So no byte of a message moves
 * before its request has crossed and its read has been posted: a round trip per message that an RDMA write
 * (InfiniBand, and aws-ofi-nccl's RDMA protocol on p5) does not have. The source does not say that these round trips
 * are serial on a connection; the measured times do (below): the serial form and its figure are read on two runs.
 *
 * <p>Not charged: Ring (its network steps wait on the ring's step order, which NCCL's latency charges per step; no
 * public EFA run of Ring/Simple), LL and LL128 (their sends fit the eager payload), p3dn (no RDMA read: libfabric's
 * long-CTS protocol through host memory; not checked) and p5 (the RDMA-write protocol, no rendezvous per message).
 * Stateless and thread-safe.
 */
public final class LibfabricReadRendezvous {

    /**
     * The wait of each later send, microseconds, fitted on the time a connection's added send costs: between two
     * sizes of one run whose sends are the same size (NCCL's Tree/Simple chunk, halved by NCCL 2.17 for the p4de run,
     * whole 512 KiB from 2.20 on the p4d run; 8 channels, 2 per 100 Gb/s NIC, 6250 B/us each), the measured rise per
     * added send less its bytes at the line rate. p4de, NCCL 2.17.1
     * (A-allreduce-2x8xA100-80GB-aws-p4de-efa-parallelcluster-nccl2.17-excerpt.txt, out of place): 4-8 MiB and 8-16
     * MiB in 64 KiB sends (lines 54-56) 19.33 and 16.95 us, 32-64 MiB in 128 KiB (lines 57-58) 15.25, 256 MiB-1 GiB in
     * 512 KiB (lines 60-62) 13.22 and 12.48: median 15.25. p4d, NCCL 2.23.4
     * (A-allreduce-2x8xA100-40GB-aws-p4d-dlami-efa-nccl2.23.txt): 64 MiB-1 GiB in 512 KiB sends (lines 71-75) 22.17,
     * 16.37, 15.57, 15.33: median 15.97. Pooled median 15.57, rounded to 16. Leaving one run out: fitted on p4de
     * alone (15.25) the p4d run's added sends are predicted within 0.1-6.5 % (99.1 us against 99.2-106.1 measured);
     * fitted on p4d alone (15.97) the p4de run's within 2.0-11.2 % (64 KiB: 26.5 us against 27.4 and 29.8; 128 KiB:
     * 36.9 against 36.2; 512 KiB: 99.9 against 96.4 and 97.1); EfaFiguresTest works every figure out from the rows. Below the class's 20 us hop latency
     * (read on the small sizes' floors, where a send's crossing also holds its GDR flush and the proxy's polls).
     */
    public static final double EFA_RENDEZVOUS_US = 16;

    private LibfabricReadRendezvous() {
    }

    /**
     * @param plan     channel plan
     * @param a        algorithm
     * @param p        protocol
     * @param runMinor the run's NCCL 2 minor release
     * @return true when each later send of a connection pays its own rendezvous: Tree/Simple between nodes on the
     *         EFA hosts of {@link LibfabricEagerCopy#provider}
     */
    static boolean applies(ChannelPlan plan, Algorithm a, Protocol p, int runMinor) {
        return a == Algorithm.TREE && p == Protocol.SIMPLE && LibfabricEagerCopy.provider(plan, runMinor).isPresent();
    }

    /**
     * The share of the NICs' line rate a call's network moves at (the place of the class's bwFraction).
     *
     * @param plan        channel plan (node NIC rate, NICs per node)
     * @param s           NCCL settings (NCCL_BUFFSIZE)
     * @param func        collective
     * @param nBytes      bytes of the call
     * @param effChannels channels the call's data occupies, &gt;= 1
     * @param channels    NCCL's channels for the call
     * @param runMinor    the run's NCCL 2 minor release
     * @return the share, in (0, 1]
     */
    static double lineShare(ChannelPlan plan, NcclSettings s, Collective func, long nBytes, double effChannels,
            int channels, int runMinor) {
        double ch = Math.max(1.0, effChannels);
        double send = Math.max(1.0, LibfabricEagerCopy.sendBytes(plan, s, func, Algorithm.TREE, nBytes, ch, channels,
                runMinor));
        double sends = Math.ceil(nBytes / ch / send - 1e-9);
        if (sends <= 1) {
            return 1;
        }
        double connGBps = plan.nodeNetBw() / Math.max(ch, plan.nicsPerNode());
        double waitBytes = (sends - 1) * EFA_RENDEZVOUS_US * 1000.0 * connGBps;
        return sends * send / (sends * send + waitBytes);
    }

    /**
     * The line predict and compare print where the rule applies.
     *
     * @param plan     channel plan
     * @param runMinor the run's NCCL 2 minor release
     * @return the note, or empty
     */
    public static Optional<String> note(ChannelPlan plan, int runMinor) {
        return LibfabricEagerCopy.provider(plan, runMinor).map(pr -> String.format(Locale.ROOT, "each later"
                + " Tree/Simple network send of a connection waits its libfabric read rendezvous (%.0f us, fitted on two"
                + " public p4d/p4de runs) before its bytes move at the full line rate", EFA_RENDEZVOUS_US));
    }
}
