package dev.collsim.nccl.env;

import dev.collsim.io.NearestName;
import dev.collsim.nccl.Collective;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * A parsed {@code NCCL_ALGO} or {@code NCCL_PROTO} value in NCCL's 2.24+ syntax (NCCL 2.30.7
 * {@code src/graph/tuning.cc}, {@code docs/userguide/source/env.rst}): {@code [func:]list;func:list...}.
 *
 * <ul>
 *   <li>A list is comma separated names, case-insensitive; a leading {@code ^} excludes the listed names and
 *       leaves the others at their default, otherwise only the listed names are enabled (forced on).</li>
 *   <li>A part without {@code func:} applies to every function; a part with one applies to that function only
 *       and replaces what earlier parts said for it. Functions: Broadcast, Reduce, AllGather, ReduceScatter,
 *       AllReduce (case-insensitive, underscores ignored).</li>
 * </ul>
 *
 * <p>This class is immutable.
 *
 * @param <E> the enum of listed elements ({@code Algorithm} or {@code Protocol})
 */
public final class AlgoProtoFilter<E extends Enum<E>> {

    /** Per element state after parsing. */
    public enum State {
        /** Not mentioned: NCCL's default applies (e.g. LL128 "auto"). */
        DEFAULT,
        /** Listed without {@code ^}: forced on (for LL128 this bypasses NCCL's safety checks). */
        ON,
        /** Excluded by {@code ^}, or not listed in an inclusive list. */
        OFF
    }

    private static final List<Collective> FUNCS = List.of(Collective.BROADCAST, Collective.REDUCE,
            Collective.ALL_GATHER, Collective.REDUCE_SCATTER, Collective.ALL_REDUCE);

    private final String text;
    private final State[][] states;

    private AlgoProtoFilter(String text, State[][] states) {
        this.text = text;
        this.states = states;
    }

    /**
     * The filter that leaves everything at NCCL's default.
     *
     * @param type the element enum
     * @param <E>  element type
     * @return the filter
     */
    public static <E extends Enum<E>> AlgoProtoFilter<E> defaults(Class<E> type) {
        State[][] s = new State[FUNCS.size()][type.getEnumConstants().length];
        for (State[] row : s) {
            Arrays.fill(row, State.DEFAULT);
        }
        return new AlgoProtoFilter<>("", s);
    }

    /**
     * Parses a value.
     *
     * @param variable the variable name, for messages ({@code NCCL_ALGO} or {@code NCCL_PROTO})
     * @param value    the text
     * @param type     the element enum
     * @param parser   parses one element name, throwing IllegalArgumentException when unknown
     * @param allowed  the allowed element names, for messages
     * @param <E>      element type
     * @return the filter
     * @throws IllegalArgumentException naming the variable, the bad part and the allowed values
     */
    public static <E extends Enum<E>> AlgoProtoFilter<E> parse(String variable, String value, Class<E> type,
            Function<String, E> parser, String allowed) {
        Objects.requireNonNull(value, variable);
        AlgoProtoFilter<E> f = defaults(type);
        String syntax = variable + "='" + value + "': ";
        if (value.isBlank()) {
            throw new IllegalArgumentException(syntax + "empty value; use [func:]list;func:list with names from "
                    + allowed + " (a leading ^ excludes)");
        }
        for (String part : value.split(";", -1)) {
            String p = part.trim();
            if (p.isEmpty()) {
                throw new IllegalArgumentException(syntax + "empty part between ';'");
            }
            List<Collective> funcs = FUNCS;
            int colon = p.indexOf(':');
            if (colon >= 0) {
                funcs = List.of(parseFunc(syntax, p.substring(0, colon).trim()));
                p = p.substring(colon + 1).trim();
            }
            State[] row = parseList(syntax, p, type, parser, allowed);
            for (Collective c : funcs) {
                f.states[FUNCS.indexOf(c)] = row.clone();
            }
        }
        return new AlgoProtoFilter<>(value, f.states);
    }

    private static Collective parseFunc(String syntax, String name) {
        String k = name.toLowerCase(Locale.ROOT).replace("_", "");
        for (Collective c : FUNCS) {
            if (c.ncclName().toLowerCase(Locale.ROOT).equals(k)) {
                return c;
            }
        }
        throw new IllegalArgumentException(syntax + "unknown function '" + name
                + "'; allowed: Broadcast, Reduce, AllGather, ReduceScatter, AllReduce");
    }

    private static <E extends Enum<E>> State[] parseList(String syntax, String list, Class<E> type,
            Function<String, E> parser, String allowed) {
        boolean exclude = list.startsWith("^");
        String body = exclude ? list.substring(1) : list;
        State[] row = new State[type.getEnumConstants().length];
        Arrays.fill(row, exclude ? State.DEFAULT : State.OFF);
        for (String name : body.split(",", -1)) {
            String n = name.trim();
            if (n.isEmpty()) {
                throw new IllegalArgumentException(syntax + "empty name in list '" + list + "'; allowed: " + allowed);
            }
            E e;
            try {
                e = parser.apply(n);
            } catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException(syntax + "unknown name '" + n + "'; allowed: " + allowed
                        + " (comma separated, a leading ^ excludes, optional func: prefix)"
                        + NearestName.hint(n, List.of(allowed.split(", "))), ex);
            }
            row[e.ordinal()] = exclude ? State.OFF : State.ON;
        }
        return row;
    }

    /**
     * @param func    one of Broadcast, Reduce, AllGather, ReduceScatter, AllReduce
     * @param element the algorithm or protocol
     * @return its state for that function
     * @throws IllegalArgumentException for a collective NCCL's tuning does not cover
     */
    public State state(Collective func, E element) {
        int i = FUNCS.indexOf(func);
        if (i < 0) {
            throw new IllegalArgumentException(func + " has no NCCL algorithm selection");
        }
        return states[i][element.ordinal()];
    }

    /** @return true when this element may be used for the function (state is not OFF) */
    public boolean allows(Collective func, E element) {
        return state(func, element) != State.OFF;
    }

    /** @return the text this filter was parsed from (empty for the defaults) */
    public String text() {
        return text;
    }

    @Override
    public String toString() {
        return text.isEmpty() ? "(default)" : text;
    }
}
