import { Global, Module } from '@nestjs/common';
import { CommonHeaders } from './common-headers.js';
import { DocumentResponder } from './document-responder.js';
import { ContentEncodings } from './content-encoding.js';
import { FastPaths } from './fast-paths.js';
import { FrontDoor } from './front-door.js';

/** HTTP helpers every controller uses, and the front door every request passes. */
@Global()
@Module({
  providers: [DocumentResponder, CommonHeaders, FrontDoor, FastPaths, ContentEncodings],
  exports: [DocumentResponder, CommonHeaders, FrontDoor, FastPaths, ContentEncodings],
})
export class HttpCommonModule {}
