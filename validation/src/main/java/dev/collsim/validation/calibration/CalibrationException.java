package dev.collsim.validation.calibration;

/**
 * A fit was refused: it did not converge, the data cannot determine the parameters (ill-conditioned), or there is
 * too little data. The message says which and why, in plain words; {@link #reason()} says it in a few words for
 * tables (the accuracy table's refusal column).
 */
public final class CalibrationException extends Exception {

    private static final long serialVersionUID = 1L;

    private final String reason;

    /** @param message why the fit was refused (also its short reason) */
    public CalibrationException(String message) {
        this(message, message);
    }

    /**
     * @param reason  why, in a few words (e.g. "ill-conditioned", "too few points (3 for 2)")
     * @param message why, in full
     */
    public CalibrationException(String reason, String message) {
        super(message);
        this.reason = reason;
    }

    /** @return why the fit was refused, in a few words */
    public String reason() {
        return reason;
    }
}
