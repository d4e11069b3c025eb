package dev.collsim.reports.io;

import java.lang.reflect.RecordComponent;
import java.util.List;
import java.math.BigDecimal;
import java.math.MathContext;

/**
 * Writes a list of records as CSV (RFC 4180): a header of the record's component names, one line per record;
 * text with commas, quotes or line breaks is quoted. Numbers keep full precision. Stateless.
 */
public final class CsvTable {

    private CsvTable() {
    }

    /**
     * @param type the record type (gives the header even for an empty list)
     * @param rows the rows
     * @return the CSV text
     */
    public static <R extends Record> String of(Class<R> type, List<R> rows) {
        RecordComponent[] cols = type.getRecordComponents();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < cols.length; i++) {
            sb.append(i == 0 ? "" : ",").append(cols[i].getName());
        }
        sb.append("\r\n");
        for (R r : rows) {
            for (int i = 0; i < cols.length; i++) {
                Object v;
                try {
                    v = cols[i].getAccessor().invoke(r);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("cannot read " + cols[i].getName(), e);
                }
                sb.append(i == 0 ? "" : ",").append(cell(v));
            }
            sb.append("\r\n");
        }
        return sb.toString();
    }

    /**
     * @param v a value
     * @return it as one CSV cell: empty for null, NaN and infinity; a double to 9 significant digits; text quoted
     *         when it holds a comma, quote or line break
     */
    public static String cell(Object v) {
        if (v == null) {
            return "";
        }
        if (v instanceof Double d) {
            if (d.isNaN() || d.isInfinite()) {
                return "";
            }
            return new BigDecimal(d).round(new MathContext(9)).stripTrailingZeros().toPlainString();
        }
        String s = v.toString();
        if (s.contains(",") || s.contains("\"") || s.contains("\n") || s.contains("\r")) {
            return "\"" + s.replace("\"", "\"\"") + "\"";
        }
        return s;
    }
}
