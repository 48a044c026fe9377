package dev.rekon.modules.manifest;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;

/**
 * Reads the regular files of a tar archive (ustar, with GNU long names and PAX {@code path} records), and
 * gunzips, both within a size limit so that a small blob cannot expand without bound.
 */
final class TarArchive {

    static final int BLOCK = 512;

    private TarArchive() {
    }

    static boolean isGzip(byte[] b) {
        return b.length > 2 && (b[0] & 0xff) == 0x1f && (b[1] & 0xff) == 0x8b;
    }

    static boolean isTar(byte[] b) {
        return b.length >= BLOCK && new String(b, 257, 5, StandardCharsets.US_ASCII).equals("ustar");
    }

    /** @throws IOException when the data is not gzip or expands beyond {@code limit} bytes */
    static byte[] gunzip(byte[] data, long limit) throws IOException {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(data))) {
            return readAtMost(in, limit);
        }
    }

    /** Content beyond the size limit. */
    static final class TooLarge extends IOException {
        TooLarge(long limit) {
            super("content is larger than " + limit + " bytes");
        }
    }

    static byte[] readAtMost(InputStream in, long limit) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        for (int n; (n = in.read(buf)) > 0;) {
            if (out.size() + n > limit) {
                throw new TooLarge(limit);
            }
            out.write(buf, 0, n);
        }
        return out.toByteArray();
    }

    /** Path to content of every regular file, sorted by path. */
    static Map<String, byte[]> files(byte[] tar) throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        String longName = null;
        int at = 0;
        while (at + BLOCK <= tar.length && !zeroBlock(tar, at)) {
            String name = text(tar, at, 100);
            String prefix = text(tar, at + 345, 155);
            long size = octal(tar, at + 124, 12);
            char type = (char) tar[at + 156];
            int start = at + BLOCK;
            if (size < 0 || start + size > tar.length) {
                throw new IOException("tar entry '" + name + "' is truncated");
            }
            byte[] content = Arrays.copyOfRange(tar, start, start + (int) size);
            if (type == 'L') {
                longName = new String(content, StandardCharsets.UTF_8).replace("\0", "");
            } else if (type == 'x') {
                longName = paxPath(content, longName);
            } else {
                if (type == '0' || type == '\0') {
                    String path = longName != null ? longName : prefix.isEmpty() ? name : prefix + "/" + name;
                    files.put(path.replaceFirst("^\\./", ""), content);
                }
                longName = null;
            }
            at = start + (int) ((size + BLOCK - 1) / BLOCK * BLOCK);
        }
        return files;
    }

    private static String paxPath(byte[] records, String fallback) {
        for (String line : new String(records, StandardCharsets.UTF_8).split("\n")) {
            int space = line.indexOf(' ');
            if (space > 0 && line.startsWith("path=", space + 1)) {
                return line.substring(space + 6);
            }
        }
        return fallback;
    }

    private static boolean zeroBlock(byte[] b, int at) {
        for (int i = at; i < at + BLOCK; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return true;
    }

    private static String text(byte[] b, int at, int len) {
        int end = at;
        while (end < at + len && b[end] != 0) {
            end++;
        }
        return new String(b, at, end - at, StandardCharsets.UTF_8);
    }

    private static long octal(byte[] b, int at, int len) {
        String s = text(b, at, len).trim();
        try {
            return s.isEmpty() ? 0 : Long.parseLong(s, 8);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
