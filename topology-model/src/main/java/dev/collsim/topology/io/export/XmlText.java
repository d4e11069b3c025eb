package dev.collsim.topology.io.export;

/** Text helpers of the NCCL XML writer: attribute escaping and the number at the end of a device id. */
final class XmlText {

    private XmlText() {
    }

    /**
     * @param id a device id such as {@code h0/gpu7}
     * @return the decimal number it ends with (7), or 0 when it ends with no digit
     * @throws NumberFormatException when the trailing digits exceed an int
     */
    static int trailingNumber(String id) {
        int i = id.length();
        while (i > 0 && Character.isDigit(id.charAt(i - 1))) {
            i--;
        }
        return i == id.length() ? 0 : Integer.parseInt(id.substring(i));
    }

    /** @return s with {@code & " < >} written as XML entities, for an attribute value in double quotes */
    static String escape(String s) {
        return s.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
