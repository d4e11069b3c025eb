package dev.collsim.reports.whatif;

/** Receives progress of a long report run (the CLI draws a progress bar). Implementations need not be thread-safe. */
public interface ProgressListener {

    /** Ignores progress. */
    ProgressListener NONE = new ProgressListener() {
        @Override
        public void start(long total) {
        }

        @Override
        public void step(String what) {
        }
    };

    /** @param total number of steps to come */
    void start(long total);

    /** @param what the step just finished, in words */
    void step(String what);
}
