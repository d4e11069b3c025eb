package dev.collsim.nccl;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** NCCL reduction operators with nccl-tests' names ({@code -o}); ordinal = {@code ncclRedOp_t} value. */
public enum RedOp {
    /** ncclSum. */ SUM("sum"),
    /** ncclProd. */ PROD("prod"),
    /** ncclMax. */ MAX("max"),
    /** ncclMin. */ MIN("min"),
    /** ncclAvg (2.10+). */ AVG("avg");

    private final String testName;

    RedOp(String testName) {
        this.testName = testName;
    }

    /** @return nccl-tests' name, as printed in the {@code redop} column */
    public String testName() {
        return testName;
    }

    /** @throws IllegalArgumentException naming the allowed values */
    public static RedOp parse(String text) {
        String k = text.trim().toLowerCase(Locale.ROOT);
        for (RedOp o : values()) {
            if (o.testName.equals(k)) {
                return o;
            }
        }
        throw new IllegalArgumentException("unknown op '" + text + "'; allowed: " + allowed());
    }

    /** @return names, comma separated */
    public static String allowed() {
        return Arrays.stream(values()).map(RedOp::testName).collect(Collectors.joining(", "));
    }
}
