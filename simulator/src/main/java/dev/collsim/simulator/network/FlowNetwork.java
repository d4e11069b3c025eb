package dev.collsim.simulator.network;

import java.util.List;

/**
 * Congestion-aware flow-level backend. Every transfer of a step becomes a flow on its {@link Route} (identical
 * transfers merged, {@link StepFlows}); after its route latency a flow starts sending; the flows present share
 * every link max-min fairly ({@link MaxMinFairShare}); the simulation jumps from event to event (a job starts, a
 * flow starts sending, flows finish) and recomputes the rates at each: from scratch when flows
 * started, and from the lowest rate of the finished flows up when flows only finished (exact, {@link
 * MaxMinFairShare#resolve}). A job's next step starts when its current
 * step's last flow finishes; jobs progress independently and meet only on links.
 *
 * <p>Symmetry: a step that repeats {@code k} times is simulated once and the next copies are skipped over
 * (time and link bytes multiplied) only while the job is alone on the fabric and no other job starts before the
 * skipped copies end. Copies are then identical runs of a deterministic simulation, so this is exact; with other
 * jobs present every copy is simulated. This is what makes a 16,384-GPU ring AllReduce (32,766 identical steps)
 * cost one step. This class is immutable and thread-safe (each call has its own state).
 */
public final class FlowNetwork implements NetworkBackend {

    /** Smallest number of steps step sampling simulates: the first, the last and two strata of two. */
    public static final int MIN_STEP_SAMPLES = StepSampling.MIN_SAMPLES;

    private final boolean timeline;
    private final int topLinks;
    private final FlowObserver observer;
    private final double window;
    private final boolean incremental;
    private final int stepSamples;

    /** No timeline, three busiest links. */
    public FlowNetwork() {
        this(false, 3);
    }

    /**
     * @param timeline record a {@link FlowRecord} for every simulated flow
     * @param topLinks number of busiest links to report, {@code >= 0}
     */
    public FlowNetwork(boolean timeline, int topLinks) {
        this(timeline, topLinks, 0);
    }

    /**
     * A faster, approximate variant for runs with very many distinct finish times (AllToAll over ECMP). While one
     * job alone is in flight (every job has started and the others have ended; with overlapping jobs the run is
     * exact until then), when the next flow finishes at time t, every flow that would finish (at the current
     * rates) before {@code t + window x (t - step start)} finishes in the same event, at the latest of those
     * times, and rates are recomputed once. Freed bandwidth is handed to the other flows up to that much later than in the exact
     * simulation; as max-min fair sharing is not monotone, times can come out later or (less often) earlier than
     * the exact ones; {@link Timing#windowBoundUs()} states the bound, w / (1 - w) x the time, a tested bound, not a
     * theorem ({@link CompletionWindow}). Rates are still max-min fair allocations, so no link is ever over
     * capacity. {@code window = 0} is the exact simulation.
     *
     * @param timeline record a {@link FlowRecord} for every simulated flow
     * @param topLinks number of busiest links to report, {@code >= 0}
     * @param window   relative completion window in [0, 1)
     * @throws IllegalArgumentException when the window is outside [0, 1)
     */
    public FlowNetwork(boolean timeline, int topLinks, double window) {
        this(timeline, topLinks, window, 0);
    }

    /**
     * Step sampling, for a lone job with very many steps of very many flows (direct AllToAll on thousands of GPUs):
     * when one job is timed, without a timeline, and its schedule has more than {@code stepSamples} steps, only
     * {@code stepSamples} of its steps are simulated (each with the completion window, exactly with window 0,
     * alone on the empty fabric, as it runs in the full simulation: a lone job's steps do not overlap) and its time
     * is estimated from them by stratified random sampling ({@link StepSampling}); {@link Timing#samplingBoundUs()}
     * states the sampling's error bound (3 estimated standard errors), {@link Timing#windowBoundUs()} the window's
     * (0 with window 0) and {@link Timing#makespanBoundUs()} their sum; the busiest links are estimated the same
     * way. Otherwise, and with {@code stepSamples =
     * 0}, every step is simulated (exact).
     *
     * @param timeline    record a {@link FlowRecord} for every simulated flow (turns sampling off)
     * @param topLinks    number of busiest links to report, {@code >= 0}
     * @param window      relative completion window in [0, 1) (see {@link #FlowNetwork(boolean, int, double)})
     * @param stepSamples steps to simulate when sampling: 0 (never sample) or {@code >= 6}
     * @throws IllegalArgumentException when the window or the sample size is out of range
     */
    public FlowNetwork(boolean timeline, int topLinks, double window, int stepSamples) {
        if (!(window >= 0 && window < 1)) {
            throw new IllegalArgumentException("completion window must be in [0, 1), got " + window);
        }
        if (stepSamples != 0 && stepSamples < StepSampling.MIN_SAMPLES) {
            throw new IllegalArgumentException("step samples must be 0 (every step) or >= "
                    + StepSampling.MIN_SAMPLES + ", got " + stepSamples);
        }
        this.timeline = timeline;
        this.topLinks = topLinks;
        this.observer = null;
        this.window = window;
        this.incremental = true;
        this.stepSamples = stepSamples;
    }

    /**
     * For tests: {@code incremental = false} recomputes every rate from scratch at every event (the plain solver the
     * incremental one is checked against).
     */
    FlowNetwork(boolean timeline, int topLinks, double window, boolean incremental) {
        this.timeline = timeline;
        this.topLinks = topLinks;
        this.observer = null;
        this.window = window;
        this.incremental = incremental;
        this.stepSamples = 0;
    }

    FlowNetwork(boolean timeline, int topLinks, FlowObserver observer) {
        this.timeline = timeline;
        this.topLinks = topLinks;
        this.observer = observer;
        this.window = 0;
        this.incremental = true;
        this.stepSamples = 0;
    }

    @Override
    public String name() {
        return "flow";
    }

    @Override
    public Timing time(List<Job> jobs, NetworkModel network) {
        if (stepSamples > 0 && jobs.size() == 1 && !timeline && observer == null
                && jobs.get(0).schedule().steps().size() > stepSamples) {
            Job job = jobs.get(0);
            StepSampling.Estimate e = StepSampling.estimate(job, network, stepSamples, window);
            double end = job.startUs() + e.timeUs();
            return new Timing(name(), List.of(new JobTiming(job.name(), job.startUs(), end,
                    job.schedule().stepCount())), end, StepFlows.busiest(network, e.linkBytes(), end, topLinks),
                    List.of(), e.events(), e.boundUs(), CompletionWindow.boundUs(window, e.timeUs()));
        }
        FlowSimulation sim = new FlowSimulation(jobs, network, timeline, observer, window, incremental);
        sim.run();
        double first = Double.POSITIVE_INFINITY;
        for (Job j : jobs) {
            first = Math.min(first, j.startUs());
        }
        double elapsed = jobs.isEmpty() ? 0 : Math.max(0, sim.makespan() - first);
        return new Timing(name(), sim.jobTimings(), sim.makespan(),
                StepFlows.busiest(network, sim.linkBytes(), sim.makespan(), topLinks), sim.records(), sim.events(),
                0, CompletionWindow.boundUs(window, elapsed));
    }
}
