package dev.collsim.simulator.network;

import dev.collsim.simulator.schedule.Step;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/** The state of one {@link FlowNetwork} run: an event loop over flows. Not thread-safe; used once. */
final class FlowSimulation {

    /** A flow is finished when less than this fraction of its bytes remains (absorbs rounding of event times). */
    private static final double DONE = 1e-9;

    private final List<Job> jobs;
    private final NetworkModel net;
    private final Router router;
    /** Steps with their routes, during {@link #run()}. */
    private StepSource source;
    private final MaxMinFairShare fair;
    private final boolean timeline;
    private final FlowObserver observer;
    private final double[] linkBytes;
    private final double window;
    private final List<FlowRecord> records = new ArrayList<>();
    private final PriorityQueue<SimFlow> waiting =
            new PriorityQueue<>((a, b) -> Double.compare(a.activateAt, b.activateAt));
    private SimFlow[] active = new SimFlow[64];
    private int nActive;
    private final FinishHeap finishing = new FinishHeap();
    private double now;
    private long events;
    private boolean dirty;
    /** Flows were added since the last rate computation (else only removed: the incremental solver applies). */
    private boolean added = true;
    private final boolean incremental;

    private final int[] stepIndex;
    private final long[] copy;
    private final int[] pending;
    private final double[] stepStart;
    private final boolean[] alone;
    private final boolean[] started;
    private final double[] end;
    private final List<List<SimFlow>> stepFlows = new ArrayList<>();
    private final Map<SimFlow, Integer> lastRecord = new IdentityHashMap<>();

    FlowSimulation(List<Job> jobs, NetworkModel net, boolean timeline, FlowObserver observer) {
        this(jobs, net, timeline, observer, 0);
    }

    /**
     * @param window completion window (relative, {@code >= 0}); see {@link FlowNetwork#FlowNetwork(boolean, int,
     *               double)}
     */
    FlowSimulation(List<Job> jobs, NetworkModel net, boolean timeline, FlowObserver observer, double window) {
        this(jobs, net, timeline, observer, window, true);
    }

    /**
     * @param incremental after flows finish (and none started), recompute rates with
     *                    {@link MaxMinFairShare#resolve} (exact); false: from scratch every time (the reference
     *                    the tests compare with)
     */
    FlowSimulation(List<Job> jobs, NetworkModel net, boolean timeline, FlowObserver observer, double window,
            boolean incremental) {
        this(jobs, net, new Router(net), timeline, observer, window, incremental);
    }

    /** Incremental rates, no timeline, no observer; routed by {@code router} (reused across runs on one thread). */
    FlowSimulation(List<Job> jobs, NetworkModel net, Router router, double window) {
        this(jobs, net, router, false, null, window, true);
    }

    private FlowSimulation(List<Job> jobs, NetworkModel net, Router router, boolean timeline, FlowObserver observer,
            double window, boolean incremental) {
        this.incremental = incremental;
        if (!(window >= 0 && window < 1)) {
            throw new IllegalArgumentException("completion window must be in [0, 1), got " + window);
        }
        this.window = window;
        this.jobs = List.copyOf(jobs);
        this.net = net;
        this.router = router;
        double[] cap = new double[net.linkCount()];
        for (int l = 0; l < cap.length; l++) {
            cap[l] = net.capacity(l);
        }
        this.fair = new MaxMinFairShare(cap);
        this.timeline = timeline;
        this.observer = observer;
        this.linkBytes = new double[net.linkCount()];
        int n = jobs.size();
        stepIndex = new int[n];
        copy = new long[n];
        pending = new int[n];
        stepStart = new double[n];
        alone = new boolean[n];
        started = new boolean[n];
        end = new double[n];
        Arrays.fill(end, Double.NaN);
        for (int j = 0; j < n; j++) {
            stepFlows.add(List.of());
        }
    }

    void run() {
        try (StepSource s = new StepSource(jobs, net, router, true)) {
            source = s;
            loop();
        } finally {
            source = null;
        }
    }

    private void loop() {
        while (true) {
            startDueJobs();
            while (!waiting.isEmpty() && waiting.peek().activateAt <= now) {
                addActive(waiting.poll());
            }
            if (dirty) {
                if (added || !incremental) {
                    fair.solve(active, nActive, now);
                    finishing.rebuild();
                } else {
                    fair.resolve(now);
                    for (int i = 0; i < fair.changedCount(); i++) {
                        finishing.update(fair.changed(i));
                    }
                }
                events++;
                dirty = false;
                added = false;
            }
            double limit = nextJobStart();
            if (!waiting.isEmpty()) {
                limit = Math.min(limit, waiting.peek().activateAt);
            }
            double next = limit;
            SimFlow first = finishing.peek();
            if (first != null) {
                next = Math.min(next, Math.max(now, first.finishAt));
            }
            if (next == Double.POSITIVE_INFINITY) {
                break;
            }
            int lone = window > 0 && next < limit ? loneJob() : -1;
            if (lone >= 0) {
                next = batchEnd(next, limit, stepStart[lone]);
            }
            advance(next);
            finishFlows();
        }
    }

    /**
     * With a completion window: the latest finish time, under the current rates, of the flows that finish within
     * {@code window x (earliest - stepBegin)} after the earliest one, and before {@code limit}.
     *
     * @param stepBegin start of the lone job's current step ({@link #loneJob()}), microseconds
     */
    private double batchEnd(double earliest, double limit, double stepBegin) {
        double cutoff = Math.min(limit, earliest + window * (earliest - stepBegin));
        return finishing.latestAtMost(cutoff, earliest);
    }

    /**
     * Where the completion window applies: every job has started and exactly one has not ended. While jobs overlap,
     * or before a job's start, the run stays exact: the end of overlapping jobs depends on the phase of their
     * steps, not continuously (a phase shift of a few microseconds can move it by several percent), so any shift
     * of a finish time, however small, has no error bound in w ({@link CompletionWindow}).
     *
     * @return that job's index, or -1
     */
    private int loneJob() {
        int lone = -1;
        for (int j = 0; j < jobs.size(); j++) {
            if (!started[j]) {
                return -1;
            }
            if (Double.isNaN(end[j])) {
                if (lone >= 0) {
                    return -1;
                }
                lone = j;
            }
        }
        return lone;
    }

    /**
     * Moves the clock to {@code next}. Flows keep their bytes lazily ({@link SimFlow#rerate}), so nothing is
     * updated here; with an observer, the load of every link is summed from the flows' rates for the interval.
     */
    private void advance(double next) {
        double dt = next - now;
        if (observer != null && dt > 0) {
            double[] load = new double[linkBytes.length];
            for (int i = 0; i < nActive; i++) {
                SimFlow f = active[i];
                Route r = f.route;
                for (int k = 0; k < r.size(); k++) {
                    load[r.link(k)] += f.rate * f.weight * r.share(k);
                }
            }
            observer.interval(now, next, load);
        }
        now = next;
    }

    /** Ends every flow whose projected finish is now (within {@link #DONE} of its bytes), then any step ended. */
    private void finishFlows() {
        boolean[] stepEnded = null;
        SimFlow f;
        while ((f = finishing.peek()) != null
                && (f.finishAt <= now || (f.finishAt - now) * f.rate <= DONE * f.bytes)) {
            finishing.poll();
            Route r = f.route;
            for (int k = 0; k < r.size(); k++) {
                linkBytes[r.link(k)] += f.bytes * f.weight * r.share(k);
            }
            f.remaining = 0;
            if (timeline) {
                records.add(new FlowRecord(jobs.get(f.job).name(), f.step, f.copy, f.src, f.dst, f.channel,
                        f.weight, f.bytes, f.startUs, now, 1, 0));
                lastRecord.put(f, records.size() - 1);
            }
            if (--pending[f.job] == 0) {
                if (stepEnded == null) {
                    stepEnded = new boolean[jobs.size()];
                }
                stepEnded[f.job] = true;
            }
            fair.remove(f);
            nActive--;
            active[f.slot] = active[nActive];
            active[f.slot].slot = f.slot;
            active[nActive] = null;
            f.slot = -1;
            dirty = true;
        }
        for (int j = 0; stepEnded != null && j < stepEnded.length; j++) {
            if (stepEnded[j]) {
                stepDone(j);
            }
        }
    }

    private void startDueJobs() {
        for (int j = 0; j < jobs.size(); j++) {
            if (!started[j] && jobs.get(j).startUs() <= now) {
                started[j] = true;
                beginStep(j);
            }
        }
    }

    private double nextJobStart() {
        double t = Double.POSITIVE_INFINITY;
        for (int j = 0; j < jobs.size(); j++) {
            if (!started[j]) {
                t = Math.min(t, jobs.get(j).startUs());
            }
        }
        return t;
    }

    /** @return true when another job has started and not finished (it may be between two of its steps) */
    private boolean othersRunning(int j) {
        for (int k = 0; k < jobs.size(); k++) {
            if (k != j && started[k] && Double.isNaN(end[k])) {
                return true;
            }
        }
        return false;
    }

    /** Starts copy {@code copy[j]} of step {@code stepIndex[j]}, skipping empty steps; ends the job if none is left. */
    private void beginStep(int j) {
        List<Step> steps = jobs.get(j).schedule().steps();
        while (stepIndex[j] < steps.size()) {
            StepSource.Prepared p = source.get(j, stepIndex[j]);
            List<SimFlow> flows = StepFlows.build(j, stepIndex[j], p.step(), copy[j], p.routes(), now);
            if (!flows.isEmpty()) {
                for (SimFlow old : stepFlows.get(j)) {
                    lastRecord.remove(old);
                }
                stepFlows.set(j, flows);
                stepStart[j] = now;
                alone[j] = !othersRunning(j);
                for (int k = 0; k < jobs.size(); k++) {
                    if (k != j) {
                        alone[k] = false;
                    }
                }
                pending[j] = flows.size();
                for (SimFlow f : flows) {
                    if (f.activateAt <= now) {
                        addActive(f);
                    } else {
                        waiting.add(f);
                    }
                }
                return;
            }
            stepIndex[j]++;
            copy[j] = 0;
        }
        end[j] = now;
    }

    private void stepDone(int j) {
        Step step = source.get(j, stepIndex[j]).step();
        double duration = now - stepStart[j];
        copy[j]++;
        long left = step.repeat() - copy[j];
        if (left > 0 && alone[j] && !othersRunning(j)) {
            double nextStart = nextJobStart();
            long skip = left;
            if (nextStart != Double.POSITIVE_INFINITY && duration > 0) {
                skip = Math.min(left, (long) Math.floor((nextStart - now) / duration));
            }
            if (skip > 0) {
                StepFlows.addLinkBytes(stepFlows.get(j), skip, linkBytes);
                if (timeline) {
                    for (SimFlow f : stepFlows.get(j)) {
                        FlowRecord r = records.get(lastRecord.get(f));
                        records.add(new FlowRecord(r.job(), r.step(), r.copy() + 1, r.src(), r.dst(), r.channel(),
                                r.flows(), r.bytes(), r.startUs() + duration, r.endUs() + duration, skip, duration));
                    }
                }
                now += skip * duration;
                copy[j] += skip;
            }
        }
        if (copy[j] >= step.repeat()) {
            stepIndex[j]++;
            copy[j] = 0;
        }
        beginStep(j);
    }

    private void addActive(SimFlow f) {
        if (nActive == active.length) {
            active = Arrays.copyOf(active, nActive * 2);
        }
        f.slot = nActive;
        active[nActive++] = f;
        finishing.add(f);
        dirty = true;
        added = true;
    }

    List<JobTiming> jobTimings() {
        List<JobTiming> out = new ArrayList<>();
        for (int j = 0; j < jobs.size(); j++) {
            Job job = jobs.get(j);
            double e = Double.isNaN(end[j]) ? job.startUs() : end[j];
            out.add(new JobTiming(job.name(), job.startUs(), e, job.schedule().stepCount()));
        }
        return out;
    }

    double makespan() {
        double m = 0;
        for (JobTiming t : jobTimings()) {
            m = Math.max(m, t.endUs());
        }
        return m;
    }

    double[] linkBytes() {
        return linkBytes;
    }

    List<FlowRecord> records() {
        return records;
    }

    long events() {
        return events;
    }
}
