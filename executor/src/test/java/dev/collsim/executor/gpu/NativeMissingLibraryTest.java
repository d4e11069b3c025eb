package dev.collsim.executor.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The loader's messages (as JavaCPP and the dynamic linker print them on a host without a driver, or without the CUDA
 * runtime) are named as what the user must install, not left as a list of searched paths.
 */
class NativeMissingLibraryTest {

    /** Copied from `collsim run` on a host with no NVIDIA driver (the linker's words after the last colon). */
    @Test
    void noDriverIsNamed() {
        assertEquals("no NVIDIA driver on this host, libcuda.so.1 not found: no GPU, or the driver is not installed",
                Native.missing("no jnicudart in java.library.path: /usr/java/packages/lib:/usr/lib (/root/.javacpp/"
                        + "cache/collsim.jar/org/bytedeco/cuda/linux-x86_64/libjnicudart.so: libcuda.so.1: cannot open"
                        + " shared object file: No such file or directory)"));
    }

    @Test
    void noRuntimeIsNamed() {
        assertEquals("the CUDA 13 runtime libcudart.so.13 not found on the library path (LD_LIBRARY_PATH)",
                Native.missing("no jnicudart in java.library.path: /usr/lib (/tmp/libjnicudart.so: libcudart.so.13:"
                        + " cannot open shared object file: No such file or directory)"));
    }

    @Test
    void anythingElseKeepsTheGeneralSentence() {
        assertEquals("libcudart 13 and an NVIDIA driver are needed", Native.missing("java.lang.UnsatisfiedLinkError"));
    }
}
