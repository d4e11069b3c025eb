package dev.collsim.topology.edit;

/**
 * A {@link ClusterEdits} change that cannot be applied to a cluster (an unknown host type, more rails than the host
 * has compute NICs, an NVLink change on a host without NVLink). Callers name the field in their own terms (the report
 * spec's key, a CLI option) from {@link #field()} and {@link #detail()}; the message is {@code key: detail}.
 */
public final class ClusterEditException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final ClusterEdits.Field field;
    private final String detail;

    /**
     * @param field  the edit that cannot be applied
     * @param detail what was asked and what is allowed, without the field name
     */
    public ClusterEditException(ClusterEdits.Field field, String detail) {
        super(field.key() + ": " + detail);
        this.field = field;
        this.detail = detail;
    }

    /** @return the edit that cannot be applied */
    public ClusterEdits.Field field() {
        return field;
    }

    /** @return what was asked and what is allowed, e.g. {@code found 9, more than the 8 compute NICs ...} */
    public String detail() {
        return detail;
    }
}
