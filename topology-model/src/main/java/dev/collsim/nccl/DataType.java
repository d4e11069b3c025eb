package dev.collsim.nccl;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * NCCL data types with nccl-tests' names ({@code -d}) and sizes in bytes (NCCL {@code nccl.h}).
 * The ordinal order is NCCL's {@code ncclDataType_t} value for the types up to {@link #BFLOAT16}.
 */
public enum DataType {
    /** ncclInt8. */ INT8("int8", 1, 0),
    /** ncclUint8. */ UINT8("uint8", 1, 1),
    /** ncclInt32. */ INT32("int32", 4, 2),
    /** ncclUint32. */ UINT32("uint32", 4, 3),
    /** ncclInt64. */ INT64("int64", 8, 4),
    /** ncclUint64. */ UINT64("uint64", 8, 5),
    /** ncclFloat16. */ HALF("half", 2, 6),
    /** ncclFloat32. */ FLOAT("float", 4, 7),
    /** ncclFloat64. */ DOUBLE("double", 8, 8),
    /** ncclBfloat16. */ BFLOAT16("bfloat16", 2, 9),
    /** ncclFloat8e4m3 (2.19+). */ F8E4M3("f8e4m3", 1, 10),
    /** ncclFloat8e5m2 (2.19+). */ F8E5M2("f8e5m2", 1, 11);

    private final String testName;
    private final int size;
    private final int ncclValue;

    DataType(String testName, int size, int ncclValue) {
        this.testName = testName;
        this.size = size;
        this.ncclValue = ncclValue;
    }

    /** @return nccl-tests' name, as printed in the {@code type} column */
    public String testName() {
        return testName;
    }

    /** @return element size in bytes */
    public int size() {
        return size;
    }

    /** @return the {@code ncclDataType_t} integer value */
    public int ncclValue() {
        return ncclValue;
    }

    /** @return true for floating-point types */
    public boolean isFloating() {
        return switch (this) {
            case HALF, FLOAT, DOUBLE, BFLOAT16, F8E4M3, F8E5M2 -> true;
            default -> false;
        };
    }

    /**
     * Parses nccl-tests' names and NCCL's aliases (int8, char, uint8, int32, int, uint32, int64, uint64,
     * half, float16, float, float32, double, float64, bfloat16, f8e4m3, f8e5m2), case-insensitive.
     *
     * @throws IllegalArgumentException naming the allowed values
     */
    public static DataType parse(String text) {
        String k = text.trim().toLowerCase(Locale.ROOT);
        switch (k) {
            case "char": return INT8;
            case "int": return INT32;
            case "float16": return HALF;
            case "float32": return FLOAT;
            case "float64": return DOUBLE;
            default: break;
        }
        for (DataType t : values()) {
            if (t.testName.equals(k)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown datatype '" + text + "'; allowed: " + allowed());
    }

    /** @return nccl-tests names, comma separated */
    public static String allowed() {
        return Arrays.stream(values()).map(DataType::testName).collect(Collectors.joining(", "));
    }
}
