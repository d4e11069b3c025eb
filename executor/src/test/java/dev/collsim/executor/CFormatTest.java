package dev.collsim.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Expected strings are what C's printf prints for these formats (C11 7.21.6.1; checked against glibc output). */
class CFormatTest {

    @Test
    void floatStrShrinksDecimalsThenUsesExponent() {
        assertEquals("   6.37", CFormat.floatStr(6.37, 7));
        assertEquals("255.65", CFormat.floatStr(255.65, 6));
        assertEquals("2100.1", CFormat.floatStr(2100.1, 6));   // "2100.10" is 7 wide
        assertEquals("895262", CFormat.floatStr(895262, 6));
        assertEquals(" 1e+06", CFormat.floatStr(1_000_000, 6));  // "%6.0e"
        assertEquals("1.2e+07", CFormat.floatStr(12_345_678, 7)); // "%7.1e"
    }

    @Test
    void gMatchesC() {
        assertEquals("0", CFormat.g(0));
        assertEquals("36758.2", CFormat.g(36758.2));
        assertEquals("16416.5", CFormat.g(16416.46));
        assertEquals("1e+06", CFormat.g(1e6));
        assertEquals("123457", CFormat.g(123456.7));
        assertEquals("0.0001", CFormat.g(1e-4));
        assertEquals("1e-05", CFormat.g(1e-5));
        assertEquals("     0", CFormat.g(0, 6));
        assertEquals("    17", CFormat.g(17, 6));
    }
}
