package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** A figure a doc page quotes against the one a command prints (the doc-figure tests of predict and flow). */
public final class DocFigure {

    private DocFigure() {
    }

    /**
     * The quoted figure must be the printed one rounded to the quoted digits (234.8 for a printed 234.81, 361.3 for
     * 361.28): at most half a unit of the quoted last digit apart.
     *
     * @param quoted  the figure as the page writes it
     * @param printed the figure as the command prints it
     * @param where   what to name in the failure message
     */
    public static void assertFigure(String quoted, String printed, String where) {
        int dot = quoted.indexOf('.');
        double halfUlp = 0.5 * Math.pow(10, -(dot < 0 ? 0 : quoted.length() - dot - 1));
        assertTrue(Math.abs(Double.parseDouble(quoted) - Double.parseDouble(printed)) <= halfUlp + 1e-9,
                "page says " + quoted + ", the command prints " + printed + ": " + where);
    }
}
