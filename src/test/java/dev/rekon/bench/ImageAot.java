package dev.rekon.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.rekon.testing.Commands;
import dev.rekon.testing.SharedFiles;

/**
 * Adds an AOT cache to a pushed JVM image, behind {@code hack/image-aot.sh}: pulls the image into an OCI layout
 * (skopeo), unpacks it (umoci), runs {@link AotTraining} with the image's own entrypoint, JVM and files at the
 * image's paths ({@link ImageRoot}), adds the {@code rekon.aot} and {@code rekon.aot.jvm} it recorded to the
 * image's working directory as one more layer (umoci), and pushes the result. A cache recorded on the host
 * would not fit: the JVM checks it against the exact JVM build and each class-path jar's size and modification
 * time, and the image's JVM and jar times differ from the host's.
 *
 * <pre>ImageAot [--insecure] IMAGE [RESULT]</pre>
 * RESULT defaults to IMAGE (the same tag, now with the cache); {@code --insecure} talks plain HTTP to the
 * registries. Needs root for unpacking and for the chroot.
 */
public final class ImageAot {

    static final List<String> CACHE_FILES = List.of("rekon.aot", "rekon.aot.jvm");
    private static final Pattern JAVA_VERSION = Pattern.compile("JAVA_VERSION=\"(\\d+)");

    public static void main(String[] args) throws Exception {
        List<String> rest = new ArrayList<>(List.of(args));
        boolean insecure = rest.remove("--insecure");
        if (rest.isEmpty() || rest.size() > 2) {
            System.err.println("usage: hack/image-aot.sh [--insecure] IMAGE [RESULT]");
            System.exit(2);
        }
        Path work = SharedFiles.projectDir().resolve("target/image-aot");
        try {
            addCache(rest.get(0), rest.get(rest.size() - 1), insecure, work);
        } catch (Exception e) {
            e.printStackTrace();
            System.exit(1); // the local control plane's threads would keep this JVM alive
        }
        System.exit(0);
    }

    /** Pulls {@code image}, trains in it, pushes it with the cache as {@code result}; {@code work} is emptied first. */
    public static void addCache(String image, String result, boolean insecure, Path work) throws Exception {
        Path layout = fresh(work).resolve("oci");
        copy(insecure, "docker://" + image, "oci:" + layout + ":image");
        ImageRoot root = ImageRoot.unpack(layout, "image", work.resolve("bundle"));
        requireJdk25(image, root);
        Path cache = root.workingDir().resolve("rekon.aot");
        int handled = AotTraining.train((env, kubeconfig, log) -> App.inImage(root, env, kubeconfig, log), work);
        if (!AotTraining.report(handled, cache, work)) {
            throw new IllegalStateException("the training in " + image + " left no " + cache + "; see "
                    + work.resolve("rekon.log"));
        }
        addLayer(layout, root, work.resolve("result"));
        copy(insecure, "oci:" + layout + ":image", "docker://" + result);
        System.out.printf("[aot] %s: %s with its AOT cache%n", result, image);
    }

    /**
     * Adds the cache files to the image as one layer: copied into a fresh unpack of the image and repacked, so the
     * layer holds them and nothing else the training left (its kubeconfig, /proc and /dev mount points).
     */
    private static void addLayer(Path layout, ImageRoot trained, Path bundle) throws IOException, InterruptedException {
        ImageRoot clean = ImageRoot.unpack(layout, "image", bundle);
        for (String file : CACHE_FILES) {
            Files.copy(trained.workingDir().resolve(file), clean.workingDir().resolve(file));
        }
        Commands.run(bundle.getParent(), "umoci", "repack", "--image", layout + ":image",
                "--history.created_by", "hack/image-aot.sh: the AOT cache of a training run", bundle.toString());
    }

    /** Fails early, saying so, when the image's JAVA_HOME holds a JDK older than 25 (no AOT cache there). */
    private static void requireJdk25(String image, ImageRoot root) throws IOException {
        Path release = root.rootfs().resolve(root.env("JAVA_HOME").replaceFirst("^/+", "")).resolve("release");
        String version = Files.isRegularFile(release) ? Files.readString(release) : "";
        Matcher m = JAVA_VERSION.matcher(version);
        if (m.find() && Integer.parseInt(m.group(1)) < 25) {
            throw new IllegalStateException(image + " has JDK " + m.group(1) + " at JAVA_HOME: an AOT cache needs "
                    + "JDK 25 or later; build the image with JAVA_HOME on a JDK 25 (the pom's aot profile)");
        }
    }

    private static void copy(boolean insecure, String from, String to) throws IOException, InterruptedException {
        Commands.run(Path.of("."), "skopeo", "copy", "--quiet", "--src-tls-verify=" + !insecure,
                "--dest-tls-verify=" + !insecure, from, to);
    }

    /** The work directory, emptied (the unpacked image of an earlier run is root's and large). */
    private static Path fresh(Path work) throws IOException, InterruptedException {
        if (Files.exists(work)) {
            Commands.run(work.getParent(), "rm", "-rf", work.toString());
        }
        return Files.createDirectories(work);
    }
}
