package dev.collsim.sweep.run;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * Progress of a sweep on standard error: points done of all, rate, estimated time left and failed points, one line
 * per batch of chunks. Not thread-safe.
 */
public final class Progress {

    private final PrintWriter err;
    private final boolean on;
    private final long total;
    private final long startNanos = System.nanoTime();
    private final long resumed;

    /**
     * @param err     where lines go
     * @param on      false to print nothing
     * @param total   points of the sweep
     * @param resumed points already done by an earlier run (not counted in the rate)
     */
    public Progress(PrintWriter err, boolean on, long total, long resumed) {
        this.err = err;
        this.on = on;
        this.total = total;
        this.resumed = resumed;
    }

    /** @return points per second computed by this run so far */
    public double rate(long done) {
        double s = (System.nanoTime() - startNanos) / 1e9;
        return s > 0 ? (done - resumed) / s : 0;
    }

    /** Prints one line: {@code sweep: 4000/10000 points (40.0 %), 812 points/s, ETA 7 s, 3 failed}. */
    public void update(long done, long failed) {
        if (!on) {
            return;
        }
        double r = rate(done);
        String eta = r > 0 ? String.format(Locale.ROOT, "%.0f s", (total - done) / r) : "-";
        err.printf(Locale.ROOT, "sweep: %d/%d points (%.1f %%), %.0f points/s, ETA %s, %d failed%n", done, total,
                100.0 * done / total, r, eta, failed);
        err.flush();
    }

    /** Prints a line as is. */
    public void note(String line) {
        if (on) {
            err.println("sweep: " + line);
            err.flush();
        }
    }
}
