package dev.rekon.packaging;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.rekon.testing.SharedFiles;

/**
 * The sample CloudEvents of README.md and docs/*.md: every curl command that posts a CloudEvent to the
 * function endpoint, with its attributes (binary ce-* headers, or the structured body's "type").
 */
public final class DocumentedEvents {

    /** One documented event: where it is written, its attributes, and the curl command's body (may be null). */
    public record Sample(String where, Map<String, String> attributes, String data, boolean structured) {
        public String type() {
            return attributes.get("type");
        }

        @Override
        public String toString() {
            return where + " " + attributes;
        }
    }

    private static final Pattern HEADER = Pattern.compile("-H\\s+(['\"])([^:'\"]+):\\s*([^'\"]*)\\1");
    private static final Pattern INLINE_DATA = Pattern.compile("(?:-d|--data)\\s+'([^']*)'", Pattern.DOTALL);
    private static final Pattern FILE_DATA = Pattern.compile("(?:-d|--data)\\s+@(\\S+)");
    private static final Pattern STRUCTURED_TYPE = Pattern.compile("\"type\"\\s*:\\s*\"([^\"]+)\"");

    private DocumentedEvents() {
    }

    public static List<Sample> all() {
        Path root = SharedFiles.projectDir();
        List<Path> docs = new ArrayList<>(List.of(root.resolve("README.md")));
        try (Stream<Path> files = Files.list(root.resolve("docs"))) {
            files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(docs::add);
            List<Sample> out = new ArrayList<>();
            for (Path doc : docs) {
                for (String curl : curls(Files.readString(doc))) {
                    sample(root, doc, curl).ifPresent(out::add);
                }
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** curl commands, joined across continuation lines and across line breaks inside single quotes. */
    static List<String> curls(String markdown) {
        List<String> out = new ArrayList<>();
        StringBuilder current = null;
        for (String line : markdown.split("\n")) {
            if (current == null && line.trim().startsWith("curl ")) {
                current = new StringBuilder();
            }
            if (current == null) {
                continue;
            }
            current.append(line.endsWith("\\") ? line.substring(0, line.length() - 1) : line).append('\n');
            boolean quoteOpen = current.chars().filter(c -> c == '\'').count() % 2 == 1;
            if (!line.endsWith("\\") && !quoteOpen) {
                out.add(current.toString());
                current = null;
            }
        }
        return out;
    }

    private static java.util.Optional<Sample> sample(Path root, Path doc, String curl) throws IOException {
        String url = curl.replaceAll("(?s)^curl\\s+(?:-\\S+\\s+)*", "").split("\\s")[0];
        if (curl.contains("/webhooks/") || curl.contains("/modules")) {
            return java.util.Optional.empty();
        }
        Map<String, String> attributes = new LinkedHashMap<>();
        boolean structured = false;
        Matcher h = HEADER.matcher(curl);
        while (h.find()) {
            String name = h.group(2).trim().toLowerCase(java.util.Locale.ROOT);
            if (name.startsWith("ce-")) {
                attributes.put(name.substring(3), h.group(3).trim());
            }
            structured |= name.equals("content-type") && h.group(3).contains("cloudevents+json");
        }
        String data = null;
        Matcher inline = INLINE_DATA.matcher(curl);
        Matcher file = FILE_DATA.matcher(curl);
        if (inline.find()) {
            data = inline.group(1);
        } else if (file.find() && Files.isRegularFile(root.resolve(file.group(1)))) {
            data = Files.readString(root.resolve(file.group(1)));
        }
        if (structured && data != null) {
            Matcher t = STRUCTURED_TYPE.matcher(data);
            if (t.find()) {
                attributes.put("type", t.group(1));
            }
        }
        if (!attributes.containsKey("type")) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new Sample(root.relativize(doc) + " (" + url + ")", attributes, data, structured));
    }
}
