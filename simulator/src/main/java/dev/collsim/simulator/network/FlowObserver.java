package dev.collsim.simulator.network;

/** Sees every interval of constant rates in a {@link FlowNetwork} run (used by tests to check invariants). */
interface FlowObserver {

    /**
     * @param fromUs   interval start, microseconds
     * @param toUs     interval end, microseconds
     * @param linkRate load of every link during the interval, bytes per microsecond (do not keep the array)
     */
    void interval(double fromUs, double toUs, double[] linkRate);
}
