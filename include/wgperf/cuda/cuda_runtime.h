/* cuda_runtime.h - the CUDA runtime's host API as declarations only, for
 * wgperf's device-side compile of a whole .cu program.
 *
 * wgperf compiles .cu files with clang-19 --cuda-device-only -nocudainc
 * (clang-19 cannot parse the CUDA 13 headers) and force-includes
 * cuda_compat.h for the device side.  A program file also holds host code
 * (main, cudaMalloc, the <<<...>>> launches) that clang parses but does not
 * compile for the device: these declarations let it parse.  Nothing here is
 * ever called; the kernels are what wgperf models.  A program that uses more
 * of the runtime than this declares it itself or passes only its kernels.
 */
#ifndef WGPERF_CUDA_RUNTIME_H
#define WGPERF_CUDA_RUNTIME_H

#ifndef WGPERF_CUDA_COMPAT_H
#include "../cuda_compat.h"
#endif

typedef enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorNotReady = 600,
  cudaErrorUnknown = 999
} cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};

enum cudaFuncCache { cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1, cudaFuncCachePreferL1 = 2, cudaFuncCachePreferEqual = 3 };
enum cudaSharedMemConfig { cudaSharedMemBankSizeDefault = 0, cudaSharedMemBankSizeFourByte = 1, cudaSharedMemBankSizeEightByte = 2 };

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;

#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaMemAttachGlobal 0x01
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02

struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem, sharedMemPerBlock;
  int regsPerBlock, warpSize;
  size_t memPitch;
  int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3], clockRate;
  size_t totalConstMem;
  int major, minor;
  size_t textureAlignment;
  int deviceOverlap, multiProcessorCount, kernelExecTimeoutEnabled, integrated, canMapHostMemory, computeMode;
  int concurrentKernels, ECCEnabled, pciBusID, pciDeviceID, asyncEngineCount, unifiedAddressing;
  int memoryClockRate, memoryBusWidth, l2CacheSize, persistingL2CacheMaxSize, maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported, globalL1CacheSupported, localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor, managedMemory, isMultiGpuBoard, multiGpuBoardGroupID, cooperativeLaunch;
  size_t sharedMemPerBlockOptin;
  int maxBlocksPerMultiProcessor;
};

/* The <<<grid, block, shared, stream>>> launch: clang calls this. */
extern "C" __host__ cudaError_t cudaConfigureCall(dim3 grid, dim3 block, size_t shared = 0, cudaStream_t stream = 0);
extern "C" __host__ unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared = 0, void *stream = 0);

extern "C" {
__host__ cudaError_t cudaMalloc(void **ptr, size_t bytes);
__host__ cudaError_t cudaMallocHost(void **ptr, size_t bytes);
__host__ cudaError_t cudaMallocManaged(void **ptr, size_t bytes, unsigned flags);
__host__ cudaError_t cudaMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height);
__host__ cudaError_t cudaHostAlloc(void **ptr, size_t bytes, unsigned flags);
__host__ cudaError_t cudaFree(void *ptr);
__host__ cudaError_t cudaFreeHost(void *ptr);
__host__ cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind);
__host__ cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind,
                                     cudaStream_t stream);
__host__ cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                  size_t height, enum cudaMemcpyKind kind);
__host__ cudaError_t cudaMemset(void *ptr, int value, size_t bytes);
__host__ cudaError_t cudaMemsetAsync(void *ptr, int value, size_t bytes, cudaStream_t stream);
__host__ cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t bytes, size_t offset,
                                        enum cudaMemcpyKind kind);
__host__ cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t bytes, size_t offset,
                                          enum cudaMemcpyKind kind);
__host__ cudaError_t cudaDeviceSynchronize(void);
__host__ cudaError_t cudaDeviceReset(void);
__host__ cudaError_t cudaThreadSynchronize(void);
__host__ cudaError_t cudaGetLastError(void);
__host__ cudaError_t cudaPeekAtLastError(void);
__host__ const char *cudaGetErrorString(cudaError_t error);
__host__ const char *cudaGetErrorName(cudaError_t error);
__host__ cudaError_t cudaSetDevice(int device);
__host__ cudaError_t cudaGetDevice(int *device);
__host__ cudaError_t cudaGetDeviceCount(int *count);
__host__ cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
__host__ cudaError_t cudaDeviceGetAttribute(int *value, int attr, int device);
__host__ cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache config);
__host__ cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
__host__ cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache config);
__host__ cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value);
__host__ cudaError_t cudaEventCreate(cudaEvent_t *event);
__host__ cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned flags);
__host__ cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
__host__ cudaError_t cudaEventSynchronize(cudaEvent_t event);
__host__ cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
__host__ cudaError_t cudaEventDestroy(cudaEvent_t event);
__host__ cudaError_t cudaStreamCreate(cudaStream_t *stream);
__host__ cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned flags);
__host__ cudaError_t cudaStreamSynchronize(cudaStream_t stream);
__host__ cudaError_t cudaStreamDestroy(cudaStream_t stream);
__host__ cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes);
__host__ cudaError_t cudaDriverGetVersion(int *version);
__host__ cudaError_t cudaRuntimeGetVersion(int *version);
}

/* The C++ conveniences of the runtime: typed pointers and symbols. */
template <class T> static __host__ inline cudaError_t cudaMalloc(T **ptr, size_t bytes) {
  return cudaMalloc((void **)ptr, bytes);
}
template <class T> static __host__ inline cudaError_t cudaMallocHost(T **ptr, size_t bytes) {
  return cudaMallocHost((void **)ptr, bytes);
}
template <class T>
static __host__ inline cudaError_t cudaMallocManaged(T **ptr, size_t bytes, unsigned flags = cudaMemAttachGlobal) {
  return cudaMallocManaged((void **)ptr, bytes, flags);
}
template <class T> static __host__ inline cudaError_t cudaHostAlloc(T **ptr, size_t bytes, unsigned flags) {
  return cudaHostAlloc((void **)ptr, bytes, flags);
}
template <class T>
static __host__ inline cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t bytes,
                                                      size_t offset = 0,
                                                      enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return cudaMemcpyToSymbol((const void *)&symbol, src, bytes, offset, kind);
}
template <class T>
static __host__ inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t bytes, size_t offset = 0,
                                                        enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return cudaMemcpyFromSymbol(dst, (const void *)&symbol, bytes, offset, kind);
}
template <class T> static __host__ inline cudaError_t cudaFuncSetCacheConfig(T *func, enum cudaFuncCache config) {
  return cudaFuncSetCacheConfig((const void *)func, config);
}

/* texture objects (the device side is in cuda_compat.h) */
typedef struct cudaArray *cudaArray_t;
enum cudaChannelFormatKind {
  cudaChannelFormatKindSigned = 0,
  cudaChannelFormatKindUnsigned = 1,
  cudaChannelFormatKindFloat = 2,
  cudaChannelFormatKindNone = 3
};
struct cudaChannelFormatDesc {
  int x, y, z, w;
  enum cudaChannelFormatKind f;
};
enum cudaResourceType {
  cudaResourceTypeArray = 0,
  cudaResourceTypeMipmappedArray = 1,
  cudaResourceTypeLinear = 2,
  cudaResourceTypePitch2D = 3
};
struct cudaResourceDesc {
  enum cudaResourceType resType;
  union {
    struct {
      cudaArray_t array;
    } array;
    struct {
      void *devPtr;
      struct cudaChannelFormatDesc desc;
      size_t sizeInBytes;
    } linear;
    struct {
      void *devPtr;
      struct cudaChannelFormatDesc desc;
      size_t width, height, pitchInBytes;
    } pitch2D;
  } res;
};
enum cudaTextureAddressMode {
  cudaAddressModeWrap = 0,
  cudaAddressModeClamp = 1,
  cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3
};
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
struct cudaTextureDesc {
  enum cudaTextureAddressMode addressMode[3];
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
};
__host__ struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                            enum cudaChannelFormatKind f);
template <typename T> __host__ struct cudaChannelFormatDesc cudaCreateChannelDesc(void);
__host__ cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width,
                                     size_t height = 0, unsigned flags = 0);
__host__ cudaError_t cudaFreeArray(cudaArray_t array);
__host__ cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                         size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind);
__host__ cudaError_t cudaCreateTextureObject(cudaTextureObject_t *tex, const struct cudaResourceDesc *res,
                                             const struct cudaTextureDesc *desc, const void *view);
__host__ cudaError_t cudaDestroyTextureObject(cudaTextureObject_t tex);

#endif /* WGPERF_CUDA_RUNTIME_H */
