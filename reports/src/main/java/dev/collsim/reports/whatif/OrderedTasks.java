package dev.collsim.reports.whatif;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs independent pieces of a report on a few threads and hands their results back in submission order, so the
 * report is the same as the one computed piece after piece. With one thread every piece runs at once on the
 * caller's thread, in order. A failing piece fails {@link #results} with the failure of the first failing piece in
 * submission order (the one a sequential run would have stopped at); its checked exception is rethrown as it is.
 * Threads are daemons and end with {@link #close}. Not thread-safe: one caller submits and collects.
 *
 * @param <T> a piece's result
 */
final class OrderedTasks<T> implements AutoCloseable {

    /** A piece of work that may fail with a checked exception of type {@code E}. */
    @FunctionalInterface
    interface Piece<T, E extends Exception> {
        /** @return the piece's result */
        T run() throws E;
    }

    private final ExecutorService pool;
    private final List<Future<T>> futures = new ArrayList<>();

    /**
     * @param threads worker threads, >= 1; 1 runs each piece on submission, on the caller's thread
     */
    OrderedTasks(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1, got " + threads);
        }
        if (threads == 1) {
            pool = null;
        } else {
            AtomicInteger n = new AtomicInteger();
            pool = Executors.newFixedThreadPool(threads, r -> {
                Thread t = new Thread(r, "collsim-report-" + n.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
        }
    }

    /**
     * @param piece the work; runs now (one thread) or on a worker
     */
    <E extends Exception> void submit(Piece<T, E> piece) {
        if (pool == null) {
            futures.add(Done.of(piece));
        } else {
            futures.add(pool.submit(piece::run));
        }
    }

    /**
     * Waits for every piece.
     *
     * @param checked the checked exception type the pieces may throw
     * @return the results in submission order
     * @throws E the first failing piece's checked exception (in submission order)
     */
    <E extends Exception> List<T> results(Class<E> checked) throws E {
        List<T> out = new ArrayList<>(futures.size());
        for (Future<T> f : futures) {
            try {
                out.add(f.get());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the report", e);
            } catch (ExecutionException e) {
                Throwable c = e.getCause();
                if (checked.isInstance(c)) {
                    throw checked.cast(c);
                }
                if (c instanceof RuntimeException r) {
                    throw r;
                }
                if (c instanceof Error err) {
                    throw err;
                }
                throw new IllegalStateException(c);
            }
        }
        return out;
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.shutdownNow();
        }
    }

    /** A piece already run on the caller's thread, as a completed future. */
    private static final class Done {
        private Done() {
        }

        static <T> Future<T> of(Piece<T, ?> piece) {
            CompletableFuture<T> f = new CompletableFuture<>();
            try {
                f.complete(piece.run());
            } catch (Exception | Error e) {
                f.completeExceptionally(e);
            }
            return f;
        }
    }
}
