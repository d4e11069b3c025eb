package dev.collsim.simulator.network;

import dev.collsim.simulator.schedule.Step;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Supplies each job's steps with their routes. Routes depend only on the schedule and the fabric, never on the
 * simulation's state, so while the simulation times step k of a job, step k + 1 is generated and routed ahead on
 * one background thread with its own {@link Router} (the results are the same either way: routing is a pure
 * function of the transfer; only which equal {@link Route} object is returned can differ, which merging does not
 * depend on for correctness). Prefetching is used when the machine has more than one processor and a step has at
 * least {@value #PREFETCH_MIN_TRANSFERS} transfers (large AllToAlls: routing 4.2 M transfers is a third of the
 * time). Not thread-safe: called from the simulation's thread; {@link #close()} ends the background thread.
 */
final class StepSource implements AutoCloseable {

    /** Smallest step (in transfers) whose successor is routed ahead. */
    static final int PREFETCH_MIN_TRANSFERS = 2048;

    /** A step of a job with the route of each of its transfers. */
    record Prepared(int index, Step step, Route[] routes) {
    }

    private final List<Job> jobs;
    private final Router router;
    private final NetworkModel net;
    private final boolean prefetch;
    private final Prepared[] current;
    private final CompletableFuture<Prepared>[] next;
    private ExecutorService pool;
    private Router aheadRouter;

    /**
     * @param jobs     the simulation's jobs
     * @param net      the fabric
     * @param router   the simulation's router (this thread)
     * @param prefetch route ahead on a background thread when worthwhile
     */
    @SuppressWarnings("unchecked")
    StepSource(List<Job> jobs, NetworkModel net, Router router, boolean prefetch) {
        this.jobs = jobs;
        this.net = net;
        this.router = router;
        this.prefetch = prefetch && Runtime.getRuntime().availableProcessors() > 1;
        this.current = new Prepared[jobs.size()];
        this.next = new CompletableFuture[jobs.size()];
    }

    /**
     * @param j     job index
     * @param index step index in the job's schedule
     * @return the step and its routes
     * @throws IllegalArgumentException when a transfer names a rank outside the job or cannot be routed
     */
    Prepared get(int j, int index) {
        Prepared p = current[j];
        if (p != null && p.index() == index) {
            return p;
        }
        CompletableFuture<Prepared> ahead = next[j];
        next[j] = null;
        p = null;
        if (ahead != null) {
            try {
                p = ahead.join();
            } catch (CompletionException e) {
                if (e.getCause() instanceof RuntimeException re) {
                    throw re;
                }
                throw e;
            }
            if (p.index() != index) {
                p = null;
            }
        }
        if (p == null) {
            p = prepare(j, index, router);
        }
        current[j] = p;
        List<Step> steps = jobs.get(j).schedule().steps();
        if (prefetch && index + 1 < steps.size() && p.routes().length >= PREFETCH_MIN_TRANSFERS) {
            int following = index + 1;
            next[j] = CompletableFuture.supplyAsync(() -> prepare(j, following, aheadRouter()), pool());
        }
        return p;
    }

    private Prepared prepare(int j, int index, Router r) {
        Step step = jobs.get(j).schedule().steps().get(index);
        return new Prepared(index, step, StepFlows.routes(jobs.get(j), step, r));
    }

    /** Only called on the background thread (tasks run one at a time there). */
    private Router aheadRouter() {
        if (aheadRouter == null) {
            aheadRouter = new Router(net);
        }
        return aheadRouter;
    }

    private ExecutorService pool() {
        if (pool == null) {
            pool = Executors.newSingleThreadExecutor(task -> {
                Thread t = new Thread(task, "collsim-route-ahead");
                t.setDaemon(true);
                return t;
            });
        }
        return pool;
    }

    /** Stops the background thread, if any. */
    @Override
    public void close() {
        if (pool != null) {
            pool.shutdownNow();
        }
    }
}
