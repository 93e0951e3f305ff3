package oci

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	specs "github.com/opencontainers/image-spec/specs-go"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"oras.land/oras-go/v2/content"
	"oras.land/oras-go/v2/errdef"
	"oras.land/oras-go/v2/registry/remote"
)

// The three calls of oras-go's root package (oras.TagBytes, FetchBytes and
// PackManifest) that charter makes, written against the repository as
// those functions do for it. The root package compiles a media-type
// expression in init (0.3 MB of heap, about 3% of `charter version`'s
// CPU), which every charter process paid for, hook calls included; its
// subpackages do not. The tests still use the root package to check these.

// tagBytes pushes b as content of mediaType and tags it, as oras.TagBytes.
func tagBytes(ctx context.Context, repo *remote.Repository, mediaType string, b []byte, tag string) (ocispec.Descriptor, error) {
	desc := content.NewDescriptorFromBytes(mediaType, b)
	if err := repo.PushReference(ctx, desc, bytes.NewReader(b), tag); err != nil && !errors.Is(err, errdef.ErrAlreadyExists) {
		return ocispec.Descriptor{}, fmt.Errorf("failed to tag %s: %w", tag, err)
	}
	return desc, nil
}

// fetchBytes reads what reference (a tag or digest) names, at most max
// bytes, checked against its descriptor's size and digest, as
// oras.FetchBytes.
func fetchBytes(ctx context.Context, repo *remote.Repository, reference string, max int64) (ocispec.Descriptor, []byte, error) {
	desc, rc, err := repo.FetchReference(ctx, reference)
	if err != nil {
		return ocispec.Descriptor{}, nil, err
	}
	defer rc.Close()
	if desc.Size > max {
		return ocispec.Descriptor{}, nil, fmt.Errorf("content size %v exceeds MaxBytes %v: %w", desc.Size, max, errdef.ErrSizeExceedsLimit)
	}
	b, err := content.ReadAll(rc, desc)
	if err != nil {
		return ocispec.Descriptor{}, nil, err
	}
	return desc, b, nil
}

// packManifest pushes an OCI 1.1 image manifest of artifactType with the
// empty JSON config, the layers, subject and annotations (which hold
// org.opencontainers.image.created), as oras.PackManifest with
// PackManifestVersion1_1 and no config descriptor.
func packManifest(ctx context.Context, repo *remote.Repository, artifactType string, subject *ocispec.Descriptor, layers []ocispec.Descriptor, annotations map[string]string) (ocispec.Descriptor, error) {
	if err := pushBlob(ctx, repo, ocispec.DescriptorEmptyJSON, ocispec.DescriptorEmptyJSON.Data); err != nil {
		return ocispec.Descriptor{}, fmt.Errorf("failed to push config: %w", err)
	}
	mb, err := json.Marshal(ocispec.Manifest{
		Versioned:    specs.Versioned{SchemaVersion: 2},
		Config:       ocispec.DescriptorEmptyJSON,
		MediaType:    ocispec.MediaTypeImageManifest,
		Layers:       layers,
		Subject:      subject,
		ArtifactType: artifactType,
		Annotations:  annotations,
	})
	if err != nil {
		return ocispec.Descriptor{}, err
	}
	desc := content.NewDescriptorFromBytes(ocispec.MediaTypeImageManifest, mb)
	desc.ArtifactType = artifactType
	desc.Annotations = annotations
	if err := repo.Push(ctx, desc, bytes.NewReader(mb)); err != nil && !errors.Is(err, errdef.ErrAlreadyExists) {
		return ocispec.Descriptor{}, fmt.Errorf("failed to push manifest: %w", err)
	}
	return desc, nil
}
