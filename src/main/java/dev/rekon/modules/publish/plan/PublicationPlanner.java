package dev.rekon.modules.publish.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.Reply;
import dev.rekon.core.SemVer;
import dev.rekon.modules.publish.plan.PublishPlan.ChannelMove;
import dev.rekon.modules.publish.plan.PublishPlan.Note;
import dev.rekon.modules.publish.source.ComponentRead;
import dev.rekon.modules.publish.source.ComponentVersion;
import dev.rekon.modules.release.SignatureCheck;

/**
 * Decides what publishing one component version writes (pure): nothing at all for bad input (the key, what was
 * read, the signature policy, a version pushed again with other content, a ModuleTemplate or ModuleReleaseMeta
 * that is someone else's), else the ModuleTemplate when it is not there yet, the ModuleReleaseMeta's own fields
 * when they are missing, and each auto-channel moved forward to the version (never back). The same version with
 * the same digest, published and moved, writes nothing.
 */
public final class PublicationPlanner {

    public static final String PUBLISHED = "ModulePublished";
    public static final String ALREADY = "AlreadyPublished";
    public static final String REWRITTEN = "VersionRewritten";

    private PublicationPlanner() {
    }

    public static PublishPlan plan(PublishViews v) {
        PublishKey key = v.key();
        Optional<PublishKey.Refusal> early = key.refusal();
        if (early.isPresent()) {
            return refused(key, early.get().reason(), early.get().message());
        }
        if (v.read() instanceof ComponentRead.Refused r) {
            return refused(key, r.reason(), r.message());
        }
        if (v.read() instanceof ComponentRead.Unchanged u) {
            if (!settled(key, v.policy(), v.template(), v.meta()).equals(Optional.of(u.digest()))) {
                throw new IllegalArgumentException("component version " + key + " read as unchanged from views that"
                        + " are not settled at " + u.digest());
            }
            return publish(v, u.digest(), null);
        }
        ComponentVersion c = ((ComponentRead.Found) v.read()).version();
        String what = "component version " + c.describe();
        if (!key.component().equals(c.component().name()) || !key.version().equals(c.component().version())) {
            return refused(key, "DescriptorInvalid", what + " has a descriptor naming " + c.component().name() + ":"
                    + c.component().version() + "; push each component version to the repository and tag of its name"
                    + " and version");
        }
        if (v.policy().requireSignature()) {
            SignatureCheck s = c.signature();
            if (s.status() != SignatureCheck.Status.VERIFIED) {
                return refused(key, s.reason(), what + " is not signed as rekon.modules.require-signature requires: "
                        + s.message());
            }
            if (!c.manifestCovered()) {
                return refused(key, "ManifestNotCovered", what + " is signed, but its descriptor records no SHA-256"
                        + " digest for the raw-manifest, so the signature does not cover it; record it before signing");
            }
        }
        try {
            return publish(v, c.digest(), TemplateDraft.of(c, key));
        } catch (TemplateDraft.Mismatch e) {
            return refused(key, "TemplateInvalid", what + " " + e.getMessage());
        }
    }

    /**
     * The digest the ModuleTemplate records when, should the tag still point at it, publishing would write
     * nothing: the template is Rekon's, the release meta is this component's and has its own fields, and every
     * auto-channel offers the version or a newer one (or was set by hand to no version). Empty when the component
     * version must be read.
     */
    public static Optional<String> settled(PublishKey key, PublishViews.Policy policy, PublishedTemplate template,
            PublishedMeta meta) {
        if (key.refusal().isPresent() || template == null || template.componentDigest() == null || meta == null
                || !key.component().equals(meta.ocmComponentName()) || !key.module().equals(meta.view().module())) {
            return Optional.empty();
        }
        SemVer version = SemVer.parse(key.version());
        for (String channel : policy.autoChannels()) {
            String current = meta.view().channels().get(channel);
            if (current == null || current.isBlank()
                    || SemVer.tryParse(current).map(at -> at.compareTo(version) < 0).orElse(false)) {
                return Optional.empty();
            }
        }
        return Optional.of(template.componentDigest());
    }

    /** @param template the drafted ModuleTemplate, or null when the component version was not read again */
    private static PublishPlan publish(PublishViews v, String digest, TemplateDraft template) {
        PublishKey key = v.key();
        String what = "component version " + key + "@" + digest;
        PublishedTemplate existing = v.template();
        if (existing != null) {
            if (existing.componentDigest() == null) {
                return refused(key, "TemplateExists", "ModuleTemplate " + key.namespace() + "/" + key.templateName()
                        + " exists and was not published by Rekon; delete it to publish " + what);
            }
            if (!existing.componentDigest().equals(digest)) {
                return refused(key, REWRITTEN, what + " was published before as " + existing.componentDigest()
                        + " and was pushed again with other content; a published version never changes, so publish"
                        + " the change as a new version. ModuleTemplate " + key.namespace() + "/" + key.templateName()
                        + " and the channels stay as they are");
            }
            template = null;
        }
        PublishedMeta meta = v.meta();
        if (meta != null) {
            String module = meta.view().module();
            if ((meta.ocmComponentName() != null && !meta.ocmComponentName().equals(key.component()))
                    || (module != null && !module.equals(key.module()))) {
                return refused(key, "ComponentMismatch", "ModuleReleaseMeta " + key.namespace() + "/" + key.module()
                        + " is for module " + module + " of component " + meta.ocmComponentName() + ", not "
                        + key.component() + "; one module is published from one component");
            }
        }
        List<ChannelMove> moves = new ArrayList<>();
        List<String> kept = new ArrayList<>();
        SemVer version = SemVer.parse(key.version());
        for (String channel : v.policy().autoChannels()) {
            String current = meta == null ? null : meta.view().channels().get(channel);
            Optional<SemVer> at = SemVer.tryParse(current);
            if (current == null || current.isBlank()) {
                moves.add(new ChannelMove(key.namespace(), key.module(), key.component(), channel, null, key.version()));
            } else if (at.isEmpty()) {
                kept.add(channel + " stays at '" + current + "' (not a semantic version: move it by hand)");
            } else if (at.get().compareTo(version) < 0) {
                moves.add(new ChannelMove(key.namespace(), key.module(), key.component(), channel, current,
                        key.version()));
            } else if (at.get().compareTo(version) > 0) {
                kept.add(channel + " stays at " + current + ", newer than " + key.version());
            }
        }
        ReleaseMetaDraft releaseMeta = (meta == null && moves.isEmpty())
                || (meta != null && meta.ocmComponentName() == null) ? ReleaseMetaDraft.of(key) : null;
        ObjectRef templateRef = key.templateRef();
        ObjectRef metaRef = key.releaseMetaRef();
        String movedText = String.join(",", moves.stream().map(ChannelMove::channel).toList());
        String keptText = kept.isEmpty() ? "" : "; " + String.join("; ", kept);
        if (template == null && releaseMeta == null && moves.isEmpty()) {
            return PublishPlan.only(details(Reply.unchanged(ALREADY, what + " is published as ModuleTemplate "
                    + key.namespace() + "/" + key.templateName() + " and every auto-channel offers it or a newer"
                    + " version" + keptText, List.of(templateRef)), key, digest, ""));
        }
        List<Note> events = new ArrayList<>();
        if (template != null) {
            events.add(new Note(templateRef, PUBLISHED, "published from " + what));
        }
        for (ChannelMove m : moves) {
            events.add(new Note(metaRef, "ChannelMoved", "channel " + m.channel() + " moved "
                    + (m.from() == null ? "" : "from " + m.from() + " ") + "to " + m.to() + " (published " + what + ")"));
        }
        List<ObjectRef> objects = new ArrayList<>();
        if (template != null) {
            objects.add(templateRef);
        }
        if (releaseMeta != null || !moves.isEmpty()) {
            objects.add(metaRef);
        }
        String message = (template != null ? "published " + what + " as ModuleTemplate " + key.namespace() + "/"
                + key.templateName() : what + " was published as ModuleTemplate " + key.namespace() + "/"
                + key.templateName()) + (moves.isEmpty() ? "; no channel moved"
                        : "; moved " + String.join(", ", moves.stream().map(m -> m.channel() + " "
                                + (m.from() == null ? "" : m.from() + " ") + "→ " + m.to()).toList()))
                + keptText;
        return new PublishPlan(template, releaseMeta, moves, events,
                details(Reply.applied(PUBLISHED, message, objects), key, digest, movedText));
    }

    private static Reply details(Reply r, PublishKey key, String digest, String channels) {
        return r.with("module", key.module()).with("version", key.version())
                .with("template", key.namespace() + "/" + key.templateName())
                .with("channels", channels.isEmpty() ? null : channels).with("digest", digest);
    }

    private static PublishPlan refused(PublishKey key, String reason, String message) {
        Reply r = Reply.rejected(reason, message, List.of());
        r = r.with("module", key.module()).with("version", key.version());
        return PublishPlan.only(r);
    }
}
