package dev.rekon.status;

import java.nio.file.Files;
import java.nio.file.Path;

/** The status page in Debian's headless chromium, for other areas' browser tests: its DOM, one row, a screenshot. */
public final class StatusBrowserPages {

    private StatusBrowserPages() {
    }

    public static String dom(String url) throws Exception {
        return StatusBrowserTest.chromium("--dump-dom", url);
    }

    public static String row(String dom, String object) {
        return StatusBrowserTest.row(dom, object);
    }

    public static void screenshot(String url, Path png) throws Exception {
        Files.deleteIfExists(png);
        StatusBrowserTest.chromium("--window-size=1400,900", "--screenshot=" + png, url);
    }
}
