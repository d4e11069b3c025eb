package dev.collsim.simulator;

/**
 * A prediction request the simulator refuses because of what was asked, not because of a fault in the model: an
 * invalid NCCL_* setting (the message names the variable and the allowed values), a collective for which NCCL would
 * have no eligible algorithm and protocol under the request's settings (NCCL fails the same way), or a hierarchical
 * composition that does not fit the request (another collective, one node). Callers map it to a usage error; any
 * other {@link IllegalArgumentException} escaping the simulator's facade is a bug in the simulator.
 */
public final class InvalidRequestException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** @param message what is wrong with the request and what is allowed */
    public InvalidRequestException(String message) {
        super(message);
    }

    /**
     * @param message what is wrong with the request and what is allowed
     * @param cause   the parser's exception
     */
    public InvalidRequestException(String message, Throwable cause) {
        super(message, cause);
    }
}
