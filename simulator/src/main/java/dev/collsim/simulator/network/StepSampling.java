package dev.collsim.simulator.network;

import dev.collsim.simulator.schedule.Schedule;
import dev.collsim.simulator.schedule.Step;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Times a job that is alone on the fabric from a stratified random sample of its steps, with a stated error bound
 * (opt-in: {@link FlowNetwork#FlowNetwork(boolean, int, double, int)}). Made for direct AllToAll on thousands of
 * GPUs, whose n(n-1) flows (268 M on 16,384 GPUs) every one with its own ECMP path cannot all be simulated in a
 * minute.
 *
 * <p>Decomposition (exact): a job alone on the fabric starts step k + 1 when the last flow of step k ends, so the
 * fabric is empty at every step boundary, and the job's time is the sum over its steps of each step's time
 * simulated alone from an empty fabric ({@link FlowSimulation}, exact max-min fair, every flow of the step routed).
 * Only the steps sampled are generated, routed and simulated: the others are never materialized.
 *
 * <p>Sample (N steps, m samples, m &lt; N): steps 0 and N - 1 always (AllToAll's first step holds the in-host
 * rounds, its last may hold fewer rounds); steps 1 .. N - 2 are cut into H = (m - 2) / 2 contiguous strata of
 * near-equal size N_h, and two distinct steps are drawn at random from each (seeded by the routing seed, so a run
 * is repeatable). Estimated time: the two certain steps plus sum over strata of N_h x the mean of its two steps;
 * estimated variance sum over strata of N_h^2 (1 - 2 / N_h) s_h^2 / 2, with s_h^2 = (a - b)^2 / 2 the sample
 * variance of the stratum's two step times (stratified random sampling without replacement, estimate of a
 * population total: W. G. Cochran, <i>Sampling Techniques</i>, 3rd ed., 1977, chapter 5). The stated bound is
 * {@value #Z} estimated standard errors. Link bytes are estimated the same way (each sampled step's bytes times
 * N_h / 2). Sampled steps run on up to {@value #MAX_THREADS} threads, each with its own {@link Router}.
 */
final class StepSampling {

    /** Standard errors in the stated bound (a normal interval of about 99.7%). */
    static final double Z = 3.0;
    /** Smallest sample: the two certain steps and two strata of two. */
    static final int MIN_SAMPLES = 6;
    /** Most threads used for the sampled steps. */
    static final int MAX_THREADS = 8;

    /**
     * The estimate.
     *
     * @param timeUs    estimated time of the job from its start, microseconds (exact when every step was simulated)
     * @param boundUs   stated error bound, microseconds: {@value #Z} estimated standard errors (0 when exact)
     * @param linkBytes estimated bytes per link
     * @param events    rate recomputations made over the simulated steps
     * @param simulated steps simulated
     */
    record Estimate(double timeUs, double boundUs, double[] linkBytes, long events, int simulated) {
    }

    /**
     * One simulated step and the number of steps it stands for.
     *
     * @param step   step index
     * @param weight steps it stands for in the estimate (1 for a certain step, N_h / 2 in a stratum)
     */
    record Pick(int step, double weight) {
    }

    private StepSampling() {
    }

    /**
     * The steps to simulate, in pairs per stratum after the two certain ones.
     *
     * @param steps   steps of the schedule, N
     * @param samples steps to simulate, m, {@code MIN_SAMPLES <= m < N}
     * @param seed    random seed
     * @return picks: steps 0 and N - 1 with weight 1, then the two steps of each stratum with weight N_h / 2
     */
    static List<Pick> plan(int steps, int samples, long seed) {
        if (samples < MIN_SAMPLES || samples >= steps) {
            throw new IllegalArgumentException("samples must be in [" + MIN_SAMPLES + ", " + steps + "), got "
                    + samples);
        }
        List<Pick> out = new ArrayList<>();
        out.add(new Pick(0, 1));
        out.add(new Pick(steps - 1, 1));
        int inner = steps - 2;
        int strata = (samples - 2) / 2;
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int h = 0; h < strata; h++) {
            int from = 1 + (int) ((long) h * inner / strata);
            int to = 1 + (int) ((long) (h + 1) * inner / strata);
            int size = to - from;
            int a = rnd.nextInt(size);
            int b = rnd.nextInt(size - 1);
            if (b >= a) {
                b++;
            }
            out.add(new Pick(from + a, size / 2.0));
            out.add(new Pick(from + b, size / 2.0));
        }
        return out;
    }

    /**
     * @param time  time of each pick's step, in {@link #plan} order
     * @param picks the plan
     * @return {estimated total, estimated standard error}
     */
    static double[] total(double[] time, List<Pick> picks) {
        double sum = time[0] + time[1];
        double variance = 0;
        for (int i = 2; i < picks.size(); i += 2) {
            double size = 2 * picks.get(i).weight();
            double a = time[i];
            double b = time[i + 1];
            sum += size * (a + b) / 2;
            double s2 = (a - b) * (a - b) / 2;
            variance += size * size * (1 - 2 / size) * s2 / 2;
        }
        return new double[] {sum, Math.sqrt(variance)};
    }

    /**
     * Estimates the job's time from {@code samples} of its steps.
     *
     * @param job     the job, alone on the fabric
     * @param net     the fabric
     * @param samples steps to simulate, {@code MIN_SAMPLES <= samples < } the job's steps
     * @param window  completion window of every step's simulation (0: exact)
     * @return the estimate
     * @throws IllegalArgumentException when a transfer cannot be routed (as the exact simulation)
     */
    static Estimate estimate(Job job, NetworkModel net, int samples, double window) {
        List<Step> steps = job.schedule().steps();
        List<Pick> picks = plan(steps.size(), samples, net.routing().seed());
        int threads = Math.max(1, Math.min(Math.min(MAX_THREADS, Runtime.getRuntime().availableProcessors()),
                picks.size()));
        double[] time = new double[picks.size()];
        long[] events = new long[picks.size()];
        List<double[]> bytes = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads, task -> {
            Thread t = new Thread(task, "collsim-step-sample");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<double[]>> parts = new ArrayList<>();
            for (int w = 0; w < threads; w++) {
                int worker = w;
                parts.add(pool.submit(() -> simulate(job, net, picks, worker, threads, window, time, events)));
            }
            for (Future<double[]> f : parts) {
                bytes.add(f.get());
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while simulating sampled steps", e);
        } finally {
            pool.shutdownNow();
        }
        double[] linkBytes = new double[net.linkCount()];
        for (double[] b : bytes) {
            for (int l = 0; l < linkBytes.length; l++) {
                linkBytes[l] += b[l];
            }
        }
        long ev = 0;
        for (long e : events) {
            ev += e;
        }
        double[] t = total(time, picks);
        return new Estimate(t[0], Z * t[1], linkBytes, ev, picks.size());
    }

    /** Simulates picks worker, worker + threads, ... with one router; returns their weighted link bytes. */
    private static double[] simulate(Job job, NetworkModel net, List<Pick> picks, int worker, int threads,
            double window, double[] time, long[] events) {
        Router router = new Router(net);
        double[] linkBytes = new double[net.linkCount()];
        Schedule s = job.schedule();
        for (int i = worker; i < picks.size(); i += threads) {
            Pick p = picks.get(i);
            Schedule one = new Schedule(s.algorithm(), s.collective(), s.nRanks(), s.nChannels(), s.sizeBytes(),
                    List.of(s.steps().get(p.step())));
            Job alone = new Job(job.name(), one, job.ranks(), 0, job.nets());
            FlowSimulation sim = new FlowSimulation(List.of(alone), net, router, window);
            sim.run();
            time[i] = sim.makespan();
            events[i] = sim.events();
            double[] b = sim.linkBytes();
            for (int l = 0; l < b.length; l++) {
                linkBytes[l] += p.weight() * b[l];
            }
        }
        return linkBytes;
    }
}
