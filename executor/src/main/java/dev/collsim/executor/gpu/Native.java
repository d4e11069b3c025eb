package dev.collsim.executor.gpu;

import dev.collsim.executor.ExecutorException;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.cuda.global.nccl;
import org.bytedeco.cuda.nccl.ncclComm;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Loader;

/**
 * Loading of the CUDA runtime and NCCL through JavaCPP, and error checks that turn return codes into one-line
 * {@link ExecutorException}s (exit code 5) with CUDA's and NCCL's own error strings.
 */
public final class Native {

    private static volatile int libraryCode;

    private Native() {
    }

    /**
     * Loads cudart and NCCL and reads NCCL's version.
     *
     * @return NCCL's library version code (e.g. 22803)
     * @throws ExecutorException (device) when a library cannot be loaded
     */
    public static int load() {
        if (libraryCode != 0) {
            return libraryCode;
        }
        try {
            Loader.load(cudart.class);
        } catch (Throwable t) {
            String detail = oneLine(t);
            throw new ExecutorException("cannot load the CUDA runtime (" + missing(detail) + "): " + detail,
                    ExecutorException.DEVICE, t);
        }
        try {
            Loader.load(nccl.class);
        } catch (Throwable t) {
            throw new ExecutorException("cannot load NCCL (libnccl.so.2, 2.19 or newer, must be on the library path,"
                    + " e.g. LD_LIBRARY_PATH): " + oneLine(t), ExecutorException.DEVICE, t);
        }
        int[] v = new int[1];
        int rc = nccl.ncclGetVersion(v);
        if (rc != nccl.ncclSuccess) {
            throw new ExecutorException("ncclGetVersion failed: " + ncclError(rc), ExecutorException.DEVICE);
        }
        libraryCode = v[0];
        return libraryCode;
    }

    /** @return the NCCL version code the bindings were generated from ({@code NCCL_VERSION_CODE}) */
    public static int headersCode() {
        return nccl.NCCL_VERSION_CODE;
    }

    /**
     * @param code NCCL version code (2.9+ scheme: major*10000 + minor*100 + patch)
     * @return e.g. {@code 2.28.3}
     */
    public static String versionString(int code) {
        return (code / 10000) + "." + (code % 10000) / 100 + "." + (code % 100);
    }

    /**
     * @param rc   a cudaError_t
     * @param what the call, e.g. {@code cudaMalloc(1073741824 B) on device 0}
     * @throws ExecutorException (device) when rc is not cudaSuccess
     */
    public static void cuda(int rc, String what) {
        if (rc != cudartSuccess()) {
            BytePointer s = cudart.cudaGetErrorString(rc);
            throw new ExecutorException(what + " failed: CUDA error " + rc + " (" + (s == null ? "?" : s.getString())
                    + ")", ExecutorException.DEVICE);
        }
    }

    private static int cudartSuccess() {
        return 0;
    }

    /**
     * @param rc   an ncclResult_t
     * @param what the call
     * @throws ExecutorException (device) when rc is not ncclSuccess, with ncclGetErrorString and ncclGetLastError
     */
    public static void nccl(int rc, String what) {
        if (rc != nccl.ncclSuccess) {
            throw new ExecutorException(what + " failed: " + ncclError(rc), ExecutorException.DEVICE);
        }
    }

    /**
     * @param rc an ncclResult_t
     * @return NCCL's error string and last error message
     */
    public static String ncclError(int rc) {
        BytePointer s = nccl.ncclGetErrorString(rc);
        String last = lastError();
        return "NCCL error " + rc + " (" + (s == null ? "?" : s.getString()) + ")"
                + (last.isEmpty() ? "" : ": " + last);
    }

    /** @return ncclGetLastError(NULL), or "" */
    public static String lastError() {
        try {
            BytePointer l = nccl.ncclGetLastError((ncclComm) null);
            return l == null ? "" : l.getString().strip();
        } catch (Throwable t) {
            return "";
        }
    }

    /**
     * What the loader's message says is missing, in words a user acts on: the dynamic linker names the first library
     * it could not open ({@code libcuda.so.1: cannot open shared object file}); libcuda.so.1 is the NVIDIA driver's
     * user-space library (no GPU, or no driver, on this host), libcudart.so.13 the CUDA 13 runtime the bindings were
     * built against (JavaCPP cuda 13 presets).
     *
     * @param detail the loader's message
     * @return e.g. {@code no NVIDIA driver on this host, libcuda.so.1 not found: ...}; never contains "): "
     */
    static String missing(String detail) {
        if (detail.contains("libcuda.so")) {
            return "no NVIDIA driver on this host, libcuda.so.1 not found: no GPU, or the driver is not installed";
        }
        if (detail.contains("libcudart.so")) {
            return "the CUDA 13 runtime libcudart.so.13 not found on the library path (LD_LIBRARY_PATH)";
        }
        return "libcudart 13 and an NVIDIA driver are needed";
    }

    private static String oneLine(Throwable t) {
        String m = t.getMessage() == null ? t.toString() : t.getMessage();
        Throwable c = t.getCause();
        if (c != null && c.getMessage() != null) {
            m += " (" + c.getMessage() + ")";
        }
        return m.replace('\n', ' ');
    }
}
