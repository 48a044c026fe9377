package dev.rekon.declared;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.TransientFailureException;
import dev.rekon.declared.apply.DeclaredGateway;
import dev.rekon.declared.intent.DeclaredStateStatus;
import dev.rekon.declared.intent.DeclaredStateView;
import dev.rekon.declared.plan.SourceState;
import dev.rekon.declared.source.DeclaredDocument;
import dev.rekon.declared.source.GitCredentials;
import dev.rekon.declared.source.GitRemote;
import dev.rekon.declared.source.GitSource;
import dev.rekon.declared.source.Revision;
import dev.rekon.manifests.apply.ManifestCluster;

/**
 * How often one input lists a branch tip and reads credentials: once per input and remote, whatever the number of
 * DeclaredStates and attempts; a report lists none and plans from the tip last listed. Over an in-memory git
 * source and gateway that count their calls.
 */
class BranchReaderTest {

    static final Instant NOW = Instant.parse("2026-11-27T10:00:00Z");

    /** A git source whose tip is {@code tip}; counts listings and reads. */
    static final class CountingGit implements GitSource {
        String tip = "c1";
        int listings;
        int reads;
        RuntimeException down;

        @Override
        public Optional<Revision> readTip(GitRemote remote, String path) {
            throw new AssertionError("the tip is resolved once, then read by commit");
        }

        @Override
        public Optional<String> resolveTip(GitRemote remote) {
            listings++;
            if (down != null) {
                throw down;
            }
            return Optional.ofNullable(tip);
        }

        @Override
        public Revision read(GitRemote remote, String commit, String path) {
            reads++;
            return new Revision(commit, List.of(new DeclaredDocument("a.yaml", 1, DeclaredScene.configMap(null,
                    "settings", commit))));
        }
    }

    /** Only credentials are read here: counted. */
    static final class CredentialsGateway implements DeclaredGateway {
        final List<String> read = new ArrayList<>();

        @Override
        public Optional<GitCredentials> credentials(String namespace, String secret) {
            read.add(namespace + "/" + secret);
            return Optional.of(new GitCredentials("git", secret.equals("other") ? "t2" : "t1"));
        }

        @Override
        public Optional<DeclaredStateView> state(String namespace, String name) {
            throw new AssertionError();
        }

        @Override
        public List<DeclaredStateView> states(String namespace) {
            throw new AssertionError();
        }

        @Override
        public ManifestCluster objects(DeclaredStateView state) {
            throw new AssertionError();
        }

        @Override
        public Set<String> clusterKinds() {
            throw new AssertionError();
        }

        @Override
        public boolean serves(String apiVersion, String kind) {
            throw new AssertionError();
        }

        @Override
        public List<ObjectRef> namespacedKinds(String namespace) {
            throw new AssertionError();
        }

        @Override
        public String finalizer(DeclaredStateView state, String resourceVersion, boolean present) {
            throw new AssertionError();
        }

        @Override
        public String writeStatus(DeclaredStateView state, String resourceVersion, DeclaredStateStatus status) {
            throw new AssertionError();
        }
    }

    final CountingGit git = new CountingGit();
    final CredentialsGateway gateway = new CredentialsGateway();
    final BranchReader reader = new BranchReader();

    BranchReaderTest() {
        reader.git = git;
        reader.gateway = gateway;
        reader.lastTips = new LastTips();
        reader.clock = Clock.fixed(NOW, ZoneOffset.UTC);
    }

    static DeclaredStateView state(String name, String url, String secret) {
        return DeclaredStateView.of(DeclaredScene.yaml("""
                apiVersion: rekon.dev/v1alpha1
                kind: DeclaredState
                metadata: {namespace: team-a, name: NAME, resourceVersion: "1"}
                spec:
                  git: {url: "URL", branch: main, secretRef: {name: SECRET}}
                  namespaces: [team-a]
                """.replace("NAME", name).replace("URL", url).replace("SECRET", secret)));
    }

    @Test
    void aRetryOfTheSameInputReadsNoGitAndNoSecret() {
        DeclaredKey key = new DeclaredKey("team-a", "apps", false);
        DeclaredStateView s = state("apps", "http://git.local/apps.git", "creds");
        SourceState first = reader.read(s, key.tips());
        git.tip = "c2"; // pushed meanwhile: this input keeps the tip it listed
        SourceState retry = reader.read(s, key.tips());
        assertEquals("c1", ((SourceState.Read) retry).commit());
        assertEquals(first, retry);
        assertEquals(1, git.listings, "one ls-remote for the input");
        assertEquals(1, git.reads, "its documents read once from the cache");
        assertEquals(List.of("team-a/creds"), gateway.read, "its Secret read once");

        reader.read(s, new DeclaredKey("team-a", "apps", false).tips());
        assertEquals(2, git.listings, "a new input lists the tip again");
    }

    @Test
    void aPassListsEachRepositoryBranchAndCredentialsOnce() {
        TipMemo pass = TipMemo.perInput();
        for (int i = 0; i < 10; i++) {
            reader.read(state("s" + i, "http://git.local/apps.git", "creds"), pass);
        }
        reader.read(state("o", "http://git.local/other.git", "creds"), pass);
        assertEquals(2, git.listings, "ten DeclaredStates following one branch: one listing; another repository: one");
        // The same repository through other credentials is listed with those: never through another's.
        reader.read(state("x", "http://git.local/apps.git", "other"), pass);
        assertEquals(3, git.listings);
    }

    @Test
    void aGitServerThatIsDownIsAskedOncePerPass() {
        git.down = new TransientFailureException("git.local could not be reached", null);
        TipMemo pass = TipMemo.perInput();
        for (int i = 0; i < 5; i++) {
            DeclaredStateView s = state("s" + i, "http://git.local/apps.git", "creds");
            assertThrows(TransientFailureException.class, () -> reader.read(s, pass));
        }
        assertEquals(1, git.listings);
    }

    @Test
    void aReportListsNoTipAndSaysSinceWhenItWasChecked() {
        DeclaredStateView s = state("apps", "http://git.local/apps.git", "creds");
        assertInstanceOf(SourceState.Unchecked.class, reader.read(s, TipMemo.lastKnown()),
                "no input listed it yet on this replica");
        assertEquals(0, git.listings);

        reader.read(s, TipMemo.perInput());
        git.tip = "c2";
        SourceState.Read report = (SourceState.Read) reader.read(s, TipMemo.lastKnown());
        assertEquals("c1", report.commit(), "the tip the last input listed");
        assertEquals(NOW, report.checked());
        assertEquals(1, git.listings, "the report listed nothing");
        assertNull(((SourceState.Read) reader.read(s, TipMemo.perInput())).checked(), "listed now");

        DeclaredStateView moved = state("apps", "http://git.local/elsewhere.git", "creds");
        assertInstanceOf(SourceState.Unchecked.class, reader.read(moved, TipMemo.lastKnown()),
                "a tip of another repository than it follows now does not count");
        DeclaredStateView other = state("other", "http://git.local/apps.git", "other");
        assertInstanceOf(SourceState.Unchecked.class, reader.read(other, TipMemo.lastKnown()),
                "nor one listed with other credentials");
        DeclaredStateView sibling = state("sibling", "http://git.local/apps.git", "creds");
        assertEquals("c2", ((SourceState.Read) reader.read(sibling, TipMemo.lastKnown())).commit(),
                "another DeclaredState following the branch with the same credentials shares the last listing");
    }

    @Test
    void aMissingBranchIsRememberedForTheReport() {
        git.tip = null;
        DeclaredStateView s = state("apps", "http://git.local/apps.git", "creds");
        assertEquals("BranchNotFound", ((SourceState.Refused) reader.read(s, TipMemo.perInput())).reason());
        SourceState.Refused report = (SourceState.Refused) reader.read(s, TipMemo.lastKnown());
        assertEquals("BranchNotFound", report.reason());
        assertTrue(report.message().contains("tip not checked since " + NOW), report.message());
    }
}
