import { Global, Module } from '@nestjs/common';
import { CommonHeaders } from './common-headers.js';
import { DocumentResponder } from './document-responder.js';

/** HTTP helpers every controller and middleware uses. */
@Global()
@Module({ providers: [DocumentResponder, CommonHeaders], exports: [DocumentResponder, CommonHeaders] })
export class HttpCommonModule {}
