package dev.rekon.modules.publish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.Outcome;
import dev.rekon.modules.ocm.ComponentDescriptor;
import dev.rekon.modules.ocm.TestSigning;
import dev.rekon.modules.publish.apply.PublishBodies;
import dev.rekon.modules.publish.plan.PromoteKey;
import dev.rekon.modules.publish.plan.PromoteViews;
import dev.rekon.modules.publish.plan.PromotionPlanner;
import dev.rekon.modules.publish.plan.PublicationPlanner;
import dev.rekon.modules.publish.plan.PublishKey;
import dev.rekon.modules.publish.plan.PublishPlan;
import dev.rekon.modules.publish.plan.PublishViews;
import dev.rekon.modules.publish.plan.PublishedMeta;
import dev.rekon.modules.publish.plan.PublishedTemplate;
import dev.rekon.modules.publish.plan.TemplateDraft;
import dev.rekon.modules.publish.source.ComponentRead;
import dev.rekon.modules.publish.source.ComponentVersion;
import dev.rekon.modules.release.ModuleTemplateView;
import dev.rekon.modules.release.ReleaseMetaView;
import dev.rekon.modules.release.SignatureCheck;

/** Table of module publication's decisions: views in, plan out, no I/O. */
class PublicationPlannerTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String REPO = "registry.example/modules/component-descriptors/kyma-project.io/module/kpack";
    static final String COMPONENT = "kyma-project.io/module/kpack";
    static final String DIGEST = "sha256:" + "a".repeat(64);
    static final PublishViews.Policy FAST = new PublishViews.Policy(List.of("fast"), false);
    static final PublishViews.Policy SIGNED = new PublishViews.Policy(List.of("fast"), true);

    static PublishKey key(String version) {
        return new PublishKey(REPO, version, "kcp-system");
    }

    static ComponentVersion version(String version, String digest, SignatureCheck signature, boolean covered) {
        ObjectNode d = TestSigning.kpackDescriptor(version);
        ObjectNode cr = JSON.createObjectNode().put("apiVersion", "operator.kpack.io/v1alpha1").put("kind", "Kpack");
        cr.putObject("metadata").put("name", "default");
        return new ComponentVersion(REPO, version, digest, d, ComponentDescriptor.parse(d, "test"), List.of(), covered,
                cr, null, signature);
    }

    static ComponentRead found(String version) {
        return new ComponentRead.Found(version(version, DIGEST, SignatureCheck.verified("ok"), true));
    }

    static PublishedTemplate template(String version, String digest) {
        ObjectNode t = JSON.createObjectNode();
        t.putObject("metadata").put("name", "kpack-" + version).put("namespace", "kcp-system");
        t.putObject("spec").put("moduleName", "kpack").put("version", version);
        return new PublishedTemplate(ModuleTemplateView.of(t), digest);
    }

    static PublishedMeta meta(String component, String... channelVersion) {
        Map<String, String> channels = new LinkedHashMap<>();
        for (int i = 0; i < channelVersion.length; i += 2) {
            channels.put(channelVersion[i], channelVersion[i + 1]);
        }
        return new PublishedMeta(new ReleaseMetaView("kcp-system", "kpack", "7", "kpack", channels), component);
    }

    static PublishPlan plan(PublishKey key, PublishViews.Policy policy, ComponentRead read, PublishedTemplate t,
            PublishedMeta m) {
        return PublicationPlanner.plan(new PublishViews(key, policy, read, t, m));
    }

    @Test
    void aNewModuleGetsItsTemplateItsReleaseMetaAndItsAutoChannels() {
        PublishPlan p = plan(key("0.4.1"), FAST, found("0.4.1"), null, null);
        assertEquals(Outcome.APPLIED, p.reply().outcome());
        assertEquals(PublicationPlanner.PUBLISHED, p.reply().reason());
        ObjectNode t = PublishBodies.template(p.template());
        assertEquals("kpack-0.4.1", t.path("metadata").path("name").asText());
        assertEquals("kcp-system", t.path("metadata").path("namespace").asText());
        assertEquals(DIGEST, t.path("metadata").path("annotations").path(PublishedTemplate.DIGEST_ANNOTATION).asText());
        ModuleTemplateView view = ModuleTemplateView.of(t);
        assertEquals("kpack", view.module(), "the lifecycle reads the module");
        assertEquals("0.4.1", view.version());
        assertEquals("Kpack", view.data().path("kind").asText(), "the default CR");
        assertEquals(COMPONENT, view.descriptor().path("component").path("name").asText(), "the descriptor as pushed");
        assertNull(p.releaseMeta(), "the channel apply creates the release meta with its own fields");
        assertEquals(1, p.moves().size());
        assertEquals("fast", p.moves().get(0).channel());
        assertNull(p.moves().get(0).from());
        assertEquals(COMPONENT, p.moves().get(0).component());
        assertEquals("kcp-system/kpack-0.4.1", p.reply().details().get("template"));
        assertEquals("fast", p.reply().details().get("channels"));
        assertEquals(2, p.events().size(), "an Event on the template and one on the release meta");
    }

    @Test
    void aNewerVersionMovesTheAutoChannelsAndOnlyThem() {
        PublishPlan p = plan(key("0.4.3"), new PublishViews.Policy(List.of("fast", "experimental"), false),
                found("0.4.3"), null, meta(COMPONENT, "fast", "0.4.1", "regular", "0.4.1"));
        assertEquals(List.of("fast", "experimental"), p.moves().stream().map(PublishPlan.ChannelMove::channel).toList());
        assertEquals("0.4.1", p.moves().get(0).from());
        assertEquals("fast,experimental", p.reply().details().get("channels"));
        assertNull(p.releaseMeta());
    }

    @Test
    void anOlderVersionGetsItsTemplateButNeverMovesAChannelBack() {
        PublishPlan p = plan(key("0.4.2"), FAST, found("0.4.2"), null, meta(COMPONENT, "fast", "0.4.3"));
        assertEquals(Outcome.APPLIED, p.reply().outcome());
        assertNotNull(p.template());
        assertEquals(List.of(), p.moves());
        assertTrue(p.reply().message().contains("fast stays at 0.4.3"), p.reply().message());
        assertNull(p.reply().details().get("channels"));
    }

    @Test
    void thePreReleaseSortsBeforeItsRelease() {
        PublishPlan p = plan(key("0.5.0-rc1"), FAST, found("0.5.0-rc1"), null, meta(COMPONENT, "fast", "0.5.0"));
        assertEquals(List.of(), p.moves());
        p = plan(key("0.5.0"), FAST, found("0.5.0"), null, meta(COMPONENT, "fast", "0.5.0-rc1"));
        assertEquals(1, p.moves().size());
    }

    @Test
    void theSameVersionWithTheSameDigestWritesNothing() {
        PublishPlan p = plan(key("0.4.3"), FAST, found("0.4.3"), template("0.4.3", DIGEST), meta(COMPONENT, "fast", "0.4.3"));
        assertFalse(p.writes());
        assertEquals(Outcome.UNCHANGED, p.reply().outcome());
        assertEquals(PublicationPlanner.ALREADY, p.reply().reason());
        assertEquals(List.of(), p.events());
    }

    @Test
    void aPublicationCutShortIsCompletedByTheNextOne() {
        PublishPlan p = plan(key("0.4.3"), FAST, found("0.4.3"), template("0.4.3", DIGEST), meta(COMPONENT, "fast", "0.4.1"));
        assertNull(p.template(), "the template is there");
        assertEquals(1, p.moves().size(), "the channel moves");
    }

    @Test
    void theSameVersionWithAnotherDigestIsRefusedAndNothingIsWritten() {
        PublishPlan p = plan(key("0.4.3"), FAST, found("0.4.3"), template("0.4.3", "sha256:" + "b".repeat(64)),
                meta(COMPONENT, "fast", "0.4.1"));
        assertEquals(Outcome.REJECTED, p.reply().outcome());
        assertEquals(PublicationPlanner.REWRITTEN, p.reply().reason());
        assertFalse(p.writes());
        assertTrue(p.reply().message().contains("new version"), p.reply().message());
    }

    @Test
    void aTemplateSomeoneElseWroteIsNotTakenOver() {
        PublishPlan p = plan(key("0.4.3"), FAST, found("0.4.3"), template("0.4.3", null), null);
        assertEquals("TemplateExists", p.reply().reason());
        assertFalse(p.writes());
    }

    @Test
    void aReleaseMetaOfAnotherComponentIsNotTakenOver() {
        PublishPlan p = plan(key("0.4.3"), FAST, found("0.4.3"), null, meta("example.com/other/kpack", "fast", "0.4.1"));
        assertEquals("ComponentMismatch", p.reply().reason());
        assertFalse(p.writes());
    }

    @Test
    void aReleaseMetaWithoutItsComponentGetsIt() {
        PublishPlan p = plan(key("0.4.3"), FAST, found("0.4.3"), template("0.4.3", DIGEST), meta(null, "fast", "0.4.3"));
        assertNotNull(p.releaseMeta());
        assertEquals(COMPONENT, p.releaseMeta().component());
        assertEquals(List.of(), p.moves());
    }

    @Test
    void noAutoChannelStillWritesTheReleaseMeta() {
        PublishPlan p = plan(key("0.4.3"), new PublishViews.Policy(List.of(), false), found("0.4.3"), null, null);
        assertNotNull(p.releaseMeta());
        assertEquals("kpack", p.releaseMeta().module());
        assertEquals(List.of(), p.moves());
    }

    /** Bad input: each refused with its reason, nothing written. */
    @Test
    void badInputIsRefusedBeforeAnyWrite() {
        record Case(String name, PublishKey key, PublishViews.Policy policy, ComponentRead read, String reason) {
        }
        ComponentRead unsigned = new ComponentRead.Found(version("0.4.3", DIGEST,
                SignatureCheck.missing("component has no signatures[]"), true));
        ComponentRead tampered = new ComponentRead.Found(version("0.4.3", DIGEST,
                SignatureCheck.invalid("DigestMismatch", "changed after signing"), true));
        ComponentRead uncovered = new ComponentRead.Found(version("0.4.3", DIGEST, SignatureCheck.verified("ok"), false));
        List<Case> cases = List.of(
                new Case("not semver", key("latest"), FAST, null, "VersionNotSemver"),
                new Case("a v prefix", key("v0.4.3"), FAST, null, "VersionNotSemver"),
                new Case("build metadata", key("0.4.3+build.1"), FAST, null, "VersionNotSemver"),
                new Case("no component", new PublishKey("registry.example/modules/kpack", "0.4.3", "kcp-system"), FAST,
                        null, "NotAComponent"),
                new Case("no module name", new PublishKey("registry.example/component-descriptors/kyma-project.io/module/k8s-1",
                        "0.4.3", "kcp-system"), FAST, null, "NoModuleName"),
                new Case("descriptor does not parse", key("0.4.3"), FAST,
                        new ComponentRead.Refused("DescriptorInvalid", "not YAML"), "DescriptorInvalid"),
                new Case("missing blob", key("0.4.3"), FAST, new ComponentRead.Refused("BlobMissing", "gone"),
                        "BlobMissing"),
                new Case("blob too large", key("0.4.3"), FAST, new ComponentRead.Refused("BlobTooLarge", "big"),
                        "BlobTooLarge"),
                new Case("another name in the descriptor", key("0.4.4"), FAST, found("0.4.3"), "DescriptorInvalid"),
                new Case("unsigned while required", key("0.4.3"), SIGNED, unsigned, "SignatureMissing"),
                new Case("tampered while required", key("0.4.3"), SIGNED, tampered, "DigestMismatch"),
                new Case("manifest not covered", key("0.4.3"), SIGNED, uncovered, "ManifestNotCovered"));
        for (Case c : cases) {
            PublishPlan p = plan(c.key(), c.policy(), c.read(), null, null);
            assertEquals(Outcome.REJECTED, p.reply().outcome(), c.name());
            assertEquals(c.reason(), p.reply().reason(), c.name() + ": " + p.reply().message());
            assertFalse(p.writes(), c.name());
        }
        assertEquals(Outcome.APPLIED, plan(key("0.4.3"), FAST, unsigned, null, null).reply().outcome(),
                "without require-signature an unsigned component is published");
    }

    @Test
    void theComponentsOwnTemplateIsUsedUnderItsPublishedName() {
        ObjectNode carried = JSON.createObjectNode().put("apiVersion", "operator.kyma-project.io/v1beta2")
                .put("kind", "ModuleTemplate");
        carried.putObject("metadata").put("name", "whatever").putObject("labels").put("team", "kpack");
        ObjectNode spec = carried.putObject("spec").put("moduleName", "kpack").put("version", "0.4.3");
        spec.putObject("manager").put("group", "apps").put("version", "v1").put("kind", "Deployment")
                .put("name", "kpack-controller");
        spec.putObject("info").put("repository", "https://github.com/buildpacks-community/kpack");
        ComponentVersion v = version("0.4.3", DIGEST, SignatureCheck.verified("ok"), true);
        v = new ComponentVersion(v.repository(), v.version(), v.digest(), v.descriptor(), v.component(), v.objects(),
                true, v.defaultCr(), carried, v.signature());
        PublishPlan p = plan(key("0.4.3"), FAST, new ComponentRead.Found(v), null, null);
        ObjectNode t = PublishBodies.template(p.template());
        assertEquals("kpack-0.4.3", t.path("metadata").path("name").asText());
        assertEquals("kpack", t.path("metadata").path("labels").path("team").asText());
        assertEquals("kpack-controller", t.path("spec").path("manager").path("name").asText());
        assertEquals("https://github.com/buildpacks-community/kpack", t.path("spec").path("info").path("repository")
                .asText());
        assertEquals(COMPONENT, t.path("spec").path("descriptor").path("component").path("name").asText());

        spec.put("version", "0.4.2");
        PublishPlan wrong = plan(key("0.4.3"), FAST, new ComponentRead.Found(v), null, null);
        assertEquals("TemplateInvalid", wrong.reply().reason());
        assertFalse(wrong.writes());
    }

    @Test
    void theManagerComesFromTheComponentsLabel() {
        ComponentVersion v = version("0.4.3", DIGEST, SignatureCheck.verified("ok"), true);
        ObjectNode label = ((ObjectNode) v.descriptor().path("component")).withArray("labels").addObject()
                .put("name", TemplateDraft.MANAGER_LABEL);
        label.putObject("value").put("group", "apps").put("version", "v1").put("kind", "Deployment")
                .put("name", "kpack-controller").put("namespace", "kpack");
        PublishPlan p = plan(key("0.4.3"), FAST, new ComponentRead.Found(v), null, null);
        assertEquals("kpack-controller", ModuleTemplateView.of(PublishBodies.template(p.template())).manager().name());
    }


    static PublishPlan promote(String channel, String version, PublishedTemplate t, SignatureCheck check,
            PublishedMeta m, boolean required) {
        return PromotionPlanner.plan(new PromoteViews(new PromoteKey("kcp-system", "kpack", channel, version), required,
                t, check, m));
    }

    /** Promotion by hand: forward to a published version, one major at a most, never back. */
    @Test
    void promotionByHand() {
        SignatureCheck ok = SignatureCheck.verified("ok");
        PublishedMeta meta = meta(COMPONENT, "fast", "1.0.0", "regular", "0.4.1");
        PublishPlan p = promote("regular", "1.0.0", template("1.0.0", DIGEST), ok, meta, true);
        assertEquals(PromotionPlanner.PROMOTED, p.reply().reason());
        assertEquals(1, p.moves().size());
        PublishPlan.ChannelMove m = p.moves().get(0);
        assertEquals("regular", m.channel());
        assertEquals("0.4.1", m.from());
        assertEquals("1.0.0", m.to());
        assertEquals(COMPONENT, m.component());
        assertTrue(m.note().contains("promoted from 0.4.1"), m.note());
        assertEquals("0.4.1", p.reply().details().get("fromVersion"));

        record Case(String name, String channel, String version, PublishedTemplate t, SignatureCheck check,
                PublishedMeta m, String reason) {
        }
        List<Case> cases = List.of(
                new Case("a downgrade", "regular", "0.4.0", template("0.4.0", DIGEST), ok, meta, "DowngradeRefused"),
                new Case("two majors", "regular", "2.0.0", template("2.0.0", DIGEST), ok, meta, "MajorStepTooLarge"),
                new Case("not published", "regular", "0.4.3", null, null, meta, "VersionNotPublished"),
                new Case("written by hand", "regular", "0.4.3", template("0.4.3", null), ok, meta, "VersionNotPublished"),
                new Case("no release meta", "regular", "0.4.3", template("0.4.3", DIGEST), ok, null, "ModuleNotPublished"),
                new Case("a tampered template", "regular", "0.4.3", template("0.4.3", DIGEST),
                        SignatureCheck.invalid("DigestMismatch", "changed"), meta, "DigestMismatch"),
                new Case("not a version", "regular", "latest", null, null, meta, "VersionNotSemver"),
                new Case("not a channel", "Regular-1", "0.4.3", template("0.4.3", DIGEST), ok, meta, "ChannelInvalid"));
        for (Case c : cases) {
            PublishPlan r = promote(c.channel(), c.version(), c.t(), c.check(), c.m(), true);
            assertEquals(Outcome.REJECTED, r.reply().outcome(), c.name());
            assertEquals(c.reason(), r.reply().reason(), c.name() + ": " + r.reply().message());
            assertFalse(r.writes(), c.name());
        }
        PublishPlan same = promote("fast", "1.0.0", template("1.0.0", DIGEST), ok, meta, true);
        assertEquals("AlreadyOnChannel", same.reply().reason());
        assertFalse(same.writes());
        assertEquals(1, promote("stable", "0.4.3", template("0.4.3", DIGEST), ok, meta, true).moves().size(),
                "a new channel starts anywhere");
    }

    /** A promotion by hand waits for the maintenance window as rules do: refused outside it, no write. */
    @Test
    void promotionByHandRespectsTheMaintenanceWindow() {
        PublishedMeta meta = meta(COMPONENT, "fast", "0.4.3", "regular", "0.4.1");
        java.util.Optional<dev.rekon.modules.release.MaintenanceWindow> window = java.util.Optional.of(
                dev.rekon.modules.release.MaintenanceWindow.parse("Sat 02:00-06:00"));
        PromoteKey key = new PromoteKey("kcp-system", "kpack", "regular", "0.4.3");
        PublishPlan outside = PromotionPlanner.plan(new PromoteViews(key, true, template("0.4.3", DIGEST),
                SignatureCheck.verified("ok"), meta, window, java.time.Instant.parse("2026-11-27T03:00:00Z")));
        assertEquals(Outcome.REJECTED, outside.reply().outcome());
        assertEquals("OutsideMaintenanceWindow", outside.reply().reason());
        assertTrue(outside.reply().message().contains("opens next at 2026-11-28T02:00:00Z"), outside.reply().message());
        assertFalse(outside.writes());
        PublishPlan inside = PromotionPlanner.plan(new PromoteViews(key, true, template("0.4.3", DIGEST),
                SignatureCheck.verified("ok"), meta, window, java.time.Instant.parse("2026-11-28T03:00:00Z")));
        assertEquals(PromotionPlanner.PROMOTED, inside.reply().reason());
    }
}
