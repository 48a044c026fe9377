package dev.rekon.declared.source;

import dev.rekon.core.RefusedException;

/**
 * The content of a revision cannot be applied as it is (a parse error, a file or revision beyond the limits, a
 * kustomization): only a new commit can help. {@link #reason()} is a CamelCase word for conditions and metrics;
 * the message names the file and line and what to change.
 */
public class RevisionRefusedException extends RefusedException {

    public static final String PARSE_ERROR = "ParseError";
    public static final String TOO_LARGE = "TooLarge";
    public static final String TOO_MANY_OBJECTS = "TooManyObjects";
    public static final String TOO_MANY_FILES = "TooManyFiles";
    public static final String ALIAS_LIMIT = "AliasLimit";
    public static final String KUSTOMIZE_UNSUPPORTED = "KustomizeUnsupported";
    public static final String NOT_AN_OBJECT = "NotAnObject";
    /** The path to read is missing from the commit, or is a file: reading it as empty would delete everything. */
    public static final String PATH_NOT_FOUND = "PathNotFound";

    private final String reason;
    private final String file;
    private final int line;
    private String commit;

    public RevisionRefusedException(String reason, String file, int line, String message, Throwable cause) {
        super(0, null, (file == null ? "" : file + (line > 0 ? ":" + line : "") + ": ") + message, cause);
        this.reason = reason;
        this.file = file;
        this.line = line;
    }

    public String reason() {
        return reason;
    }

    /** The file relative to the repository root, or null when the whole revision is meant. */
    public String file() {
        return file;
    }

    /** The 1-based line, or 0 when unknown. */
    public int line() {
        return line;
    }

    /** The commit whose content this is, or null when the caller named the commit itself. */
    public String commit() {
        return commit;
    }

    /** Names the commit refused, for a caller that asked for a branch's tip without knowing it. */
    RevisionRefusedException at(String refusedCommit) {
        this.commit = refusedCommit;
        return this;
    }
}
