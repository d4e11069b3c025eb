package dev.collsim.simulator.channel;

/**
 * What one channel fill has left of a host's links and NIC ports, as NCCL's search keeps it ({@code ncclTopoFollowPath}
 * subtracting a channel's bandwidth from every link of a path, NCCL 2.30.7 {@code src/graph/search.cc}; fact sheet
 * §5.3): every directed link starts at its {@link HostModel#capacity}, every NIC port at its speed in each direction
 * ({@link HostModel#nicSpeed}); a charge takes a channel's bandwidth (GB/s) off every link of a path only when each
 * still has it. Figures within 1e-6 GB/s of the charge count as enough (rounding of the search speeds). Not
 * thread-safe; one per {@link ChannelFill}.
 */
final class FillCapacity {

    /** Slack of a comparison, GB/s: a link with 1e-6 GB/s less than the charge still takes it. */
    private static final double EPS = 1e-6;

    private final HostModel h;
    private double[] rem;
    private double[] nicIn;
    private double[] nicOut;

    FillCapacity(HostModel h) {
        this.h = h;
        reset();
    }

    /** Restores every link and NIC port to its full figure (a new fill). */
    void reset() {
        rem = h.capacity.clone();
        nicIn = h.nicSpeed.clone();
        nicOut = h.nicSpeed.clone();
    }

    /**
     * @param p  a path
     * @param bw a channel's bandwidth, GB/s
     * @return true and {@code bw} taken off every link of the path when each has it left, else false and nothing taken
     */
    boolean charge(HostPath p, double bw) {
        for (int l : p.links()) {
            if (rem[l] + EPS < bw) {
                return false;
            }
        }
        for (int l : p.links()) {
            rem[l] -= bw;
        }
        return true;
    }

    /** Gives back what {@link #charge} took: {@code bw} GB/s on every link of the path. */
    void uncharge(HostPath p, double bw) {
        for (int l : p.links()) {
            rem[l] += bw;
        }
    }

    /** @return whether NIC {@code n} can still take {@code bw} GB/s coming in from the network */
    boolean nicInFits(int n, double bw) {
        return nicIn[n] + EPS >= bw;
    }

    /** @return whether NIC {@code n} can still take {@code bw} GB/s going out to the network */
    boolean nicOutFits(int n, double bw) {
        return nicOut[n] + EPS >= bw;
    }

    /** Adds {@code bw} GB/s (negative: takes it) to what NIC {@code n} has left coming in. */
    void addNicIn(int n, double bw) {
        nicIn[n] += bw;
    }

    /** Takes {@code bw} GB/s off what NIC {@code n} has left going out. */
    void takeNicOut(int n, double bw) {
        nicOut[n] -= bw;
    }
}
