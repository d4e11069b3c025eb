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

    /**
     * @param listener a listener that need not be thread-safe
     * @return the same listener called by one thread at a time (for pieces of a report computed on several threads)
     */
    static ProgressListener serialized(ProgressListener listener) {
        Object lock = new Object();
        return new ProgressListener() {
            @Override
            public void start(long total) {
                synchronized (lock) {
                    listener.start(total);
                }
            }

            @Override
            public void step(String what) {
                synchronized (lock) {
                    listener.step(what);
                }
            }
        };
    }

    /** @param total number of steps to come */
    void start(long total);

    /** @param what the step just finished, in words */
    void step(String what);
}
