package dev.rekon.webhooks.git;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * One branch push as a git host reported it, reduced to what decides who follows it: the repository (every URL
 * form the payload carries, each as {@link RepoUrls#normalise} keys it, in the order read), the branch, whether the
 * push deleted it, and the delivery id that makes a redelivery a duplicate. {@code after} is the commit the payload
 * says the branch now points at; it is informative only — whoever applies the branch reads its tip from the
 * repository itself, never from a webhook body.
 */
@RegisterForReflection
public record GitPush(String deliveryId, Set<String> repositoryUrls, String branch, boolean deleted, String after) {

    public GitPush {
        repositoryUrls = repositoryUrls == null ? Set.of()
                : Collections.unmodifiableSet(new LinkedHashSet<>(repositoryUrls));
    }

    /** The first repository key, the one answers name; null when the payload carried no usable URL. */
    public String repository() {
        return repositoryUrls.isEmpty() ? null : repositoryUrls.iterator().next();
    }

    /** Whether {@code url} (any clone, web or ssh form) names this push's repository. */
    public boolean names(String url) {
        String key = RepoUrls.normalise(url);
        return key != null && repositoryUrls.contains(key);
    }
}
