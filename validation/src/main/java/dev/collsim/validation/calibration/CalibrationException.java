package dev.collsim.validation.calibration;

/**
 * A fit was refused: it did not converge, the data cannot determine the parameters (ill-conditioned), or there is
 * too little data. The message says which and why, in plain words.
 */
public final class CalibrationException extends Exception {

    private static final long serialVersionUID = 1L;

    /** @param message why the fit was refused */
    public CalibrationException(String message) {
        super(message);
    }
}
