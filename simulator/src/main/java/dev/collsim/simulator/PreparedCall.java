package dev.collsim.simulator;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.RedOp;
import dev.collsim.simulator.perf.NvlsLoop;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.AlgoChoice;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One call on a {@link PreparedCommunicator}: a collective of one size with NCCL's choice of algorithm and protocol
 * already made (that choice depends on NCCL's cost table, never on {@link PerformanceParameters}), ready to be timed
 * for any parameters. {@link #predict} is the one place a prediction's time is computed: {@link NcclPredictor#predict}
 * and every fit, comparison and plan time a point through it. Immutable and thread-safe.
 */
public final class PreparedCall {

    private final PreparedCommunicator comm;
    private final Collective collective;
    private final long sizeBytes;
    private final DataType dataType;
    private final RedOp op;
    private final long bytes;
    private final AlgoChoice choice;
    private final HostLaunch launch;

    PreparedCall(PreparedCommunicator comm, Collective collective, long sizeBytes, DataType dataType, RedOp op,
            long bytes, AlgoChoice choice) {
        this(comm, collective, sizeBytes, dataType, op, bytes, choice, HostLaunch.ONE_GPU_PER_PROCESS);
    }

    private PreparedCall(PreparedCommunicator comm, Collective collective, long sizeBytes, DataType dataType,
            RedOp op, long bytes, AlgoChoice choice, HostLaunch launch) {
        this.launch = Objects.requireNonNull(launch, "launch");
        this.comm = Objects.requireNonNull(comm, "comm");
        this.collective = collective;
        this.sizeBytes = sizeBytes;
        this.dataType = dataType;
        this.op = op;
        this.bytes = bytes;
        this.choice = choice;
    }

    /** @return the communicator this call runs on */
    public PreparedCommunicator communicator() {
        return comm;
    }

    /** @return the collective */
    public Collective collective() {
        return collective;
    }

    /** @return nccl-tests size, bytes */
    public long sizeBytes() {
        return sizeBytes;
    }

    /** @return element type */
    public DataType dataType() {
        return dataType;
    }

    /** @return reduction operator */
    public RedOp op() {
        return op;
    }

    /** @return bytes NCCL selects on ({@link NcclPredictor#effectiveBytes}) */
    public long bytes() {
        return bytes;
    }

    /** @return NCCL's algorithm, or null for the point-to-point collectives NCCL has no cost model for */
    public Algorithm algorithm() {
        return choice == null ? null : choice.algorithm();
    }

    /** @return NCCL's protocol (point-to-point collectives: the protocol of the p2p model) */
    public Protocol protocol() {
        return comm.protocol(this);
    }

    AlgoChoice choice() {
        return choice;
    }

    /** @return how the benchmark's host drives the ranks ({@link HostLaunch#ONE_GPU_PER_PROCESS} unless set) */
    public HostLaunch launch() {
        return launch;
    }

    /**
     * @param l how the benchmark's host drives the ranks (nccl-tests -t, -g, -G)
     * @return this call, timed as one iteration of that benchmark ({@link HostLaunch#apply})
     */
    public PreparedCall drivenBy(HostLaunch l) {
        return new PreparedCall(comm, collective, sizeBytes, dataType, op, bytes, choice, l);
    }

    /**
     * @param pp performance parameters (defaults or a calibration)
     * @return collsim's prediction of this call with those parameters
     */
    public Prediction predict(PerformanceParameters pp) {
        return comm.predict(this, pp);
    }

    /**
     * @param pp       performance parameters (the loop's per-iteration cost)
     * @param channels channels of the call (the prediction's)
     * @return NCCL's loop of this call where it runs the NVLS or NVLSTree AllReduce kernel with Simple
     *         ({@link NvlsLoop#call}: chunk, heads, per-iteration cost), else empty
     */
    public Optional<NvlsLoop.Call> nvlsLoop(PerformanceParameters pp, int channels) {
        return comm.nvlsLoop(this, pp, channels);
    }

    /**
     * @param pp performance parameters
     * @return predicted time, microseconds (as {@code predict(pp).timeUs()})
     */
    public double timeUs(PerformanceParameters pp) {
        return comm.predict(this, pp).timeUs();
    }

    /**
     * @param pp performance parameters
     * @return every eligible (algorithm, protocol) in NCCL's scan order with NCCL's time and collsim's prediction,
     *         NCCL's choice marked; empty for point-to-point collectives
     */
    public List<Candidate> candidates(PerformanceParameters pp) {
        return comm.candidates(this, pp, 0);
    }

    /**
     * @param pp       performance parameters
     * @param channels the channel count a tuner plugin gives the call ({@code getCollInfo}'s {@code *nChannels}),
     *                 capped at {@link PreparedCommunicator#tunerChannelCap}; 0 for NCCL's own per-call count
     * @return as {@link #candidates(PerformanceParameters)}, each predicted on that many channels
     */
    public List<Candidate> candidates(PerformanceParameters pp, int channels) {
        if (channels < 0) {
            throw new IllegalArgumentException("channels must be >= 0 (0: NCCL's own count), got " + channels);
        }
        return comm.candidates(this, pp, channels);
    }
}
